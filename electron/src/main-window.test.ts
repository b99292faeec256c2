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

describe("createMainWindow", () => {
  it("locks the renderer down as the security checklist asks", () => {
    const window = createMainWindow({
      preload: "/app/dist/preload.cjs",
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
    }) as unknown as { options: Record<string, unknown> };
    expect(window.options.webPreferences).toEqual({
      preload: "/app/dist/preload.cjs",
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    });
    expect(window.options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700, show: false });
  });
});
