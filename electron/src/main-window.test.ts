import { describe, expect, it, vi } from "vitest";

vi.mock("electron", () => ({
  BrowserWindow: class {
    readonly options: unknown;
    constructor(options: unknown) {
      this.options = options;
    }
  },
}));

const { createMainWindow } = await import("./main-window.ts");

function windowOptions(): { webPreferences: Record<string, unknown> } & Record<string, unknown> {
  const window = createMainWindow({
    preload: "/app/dist/preload.cjs",
    bounds: { x: 10, y: 20, width: 1000, height: 700 },
  }) as unknown as { options: { webPreferences: Record<string, unknown> } };
  return window.options;
}

/**
 * The items of Electron's security checklist (electronjs.org/docs/latest/tutorial/security) that
 * a window's preferences decide, each as what it asks of them. Undefined: left at Electron's
 * default, which is the safe one.
 */
const CHECKLIST: [string, Record<string, unknown>][] = [
  [
    "Do not enable Node.js integration for remote content",
    { nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false },
  ],
  ["Enable Context Isolation", { contextIsolation: true }],
  ["Enable process sandboxing", { sandbox: true }],
  ["Do not disable webSecurity", { webSecurity: true }],
  ["Do not enable allowRunningInsecureContent", { allowRunningInsecureContent: false }],
  ["Do not enable experimental features", { experimentalFeatures: undefined }],
  ["Do not use enableBlinkFeatures", { enableBlinkFeatures: undefined }],
  ["Verify WebView options before creation (none can be made)", { webviewTag: false }],
];

describe("createMainWindow", () => {
  it.each(CHECKLIST)("meets the security checklist: %s", (_item, asked) => {
    const { webPreferences } = windowOptions();
    for (const [preference, value] of Object.entries(asked)) {
      expect(webPreferences[preference], preference).toBe(value);
    }
  });

  it("loads the preload it is given, at the bounds it is given, hidden until its first paint", () => {
    const options = windowOptions();
    expect(options.webPreferences.preload).toBe("/app/dist/preload.cjs");
    expect(options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700, show: false });
  });
});
