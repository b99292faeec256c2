import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { _electron as electron, expect, test, type ElectronApplication } from "@playwright/test";
import { electronUnavailableReason, findElectronBinary } from "../scripts/electron-binary.ts";

const binary = findElectronBinary();
const unavailable = electronUnavailableReason(binary);
test.skip(unavailable !== null, `no Electron here: ${unavailable}`);

/** Set in the main process by the test below. */
type NavigationWatch = typeof globalThis & { navigationCancelled?: Promise<boolean> };

let userData: string;
let app: ElectronApplication;

test.beforeEach(async () => {
  userData = mkdtempSync(join(tmpdir(), "taillab-electron-"));
  const launched = performance.now();
  app = await electron.launch({
    executablePath: binary!,
    args: [join(import.meta.dirname, "..")],
    env: { ...process.env, TAILLAB_USER_DATA_DIR: userData },
  });
  await app.firstWindow();
  test.info().annotations.push({
    type: "first window",
    description: `${Math.round(performance.now() - launched)} ms after launch`,
  });
});

test.afterEach(async () => {
  await app.close();
  rmSync(userData, { recursive: true, force: true });
});

test("opens the UI on the app scheme with the backend behind window.taillab", async () => {
  const page = await app.firstWindow();
  await expect(page).toHaveURL(/^app:\/\/taillab\//);
  const answer = await page.evaluate(() => window.taillab!.appInfo());
  expect(answer).toMatchObject({ ok: true, result: { host: "electron", dataDir: userData } });
  expect(answer.ok && answer.result.resultsDir).toBe(join(userData, "results"));
});

test("gives the page no Node and no way off the app", async () => {
  const page = await app.firstWindow();
  const globals = await page.evaluate(() => ({
    require: typeof (globalThis as Record<string, unknown>).require,
    process: typeof (globalThis as Record<string, unknown>).process,
    calls: Object.keys(window.taillab ?? {}).length,
  }));
  expect(globals).toEqual({
    require: "undefined",
    process: "undefined",
    calls: expect.any(Number),
  });

  // window.open asks the main process's handler before it returns: null means it was denied.
  expect(await page.evaluate(() => window.open("https://example.com/") === null)).toBe(true);
  // A navigation is decided by will-navigate's listeners in turn: one added after the app's
  // sees whether the app's cancelled it.
  await app.evaluate(({ BrowserWindow }) => {
    const [window] = BrowserWindow.getAllWindows();
    (globalThis as NavigationWatch).navigationCancelled = new Promise((resolve) => {
      window!.webContents.once("will-navigate", (event) => resolve(event.defaultPrevented));
    });
  });
  await page.evaluate(() => (location.href = "https://example.com/"));
  expect(await app.evaluate(() => (globalThis as NavigationWatch).navigationCancelled)).toBe(true);
  expect(app.windows()).toHaveLength(1);
  expect(page.url()).toMatch(/^app:\/\/taillab\//);
});

test("remembers the window's place", async () => {
  await app.close();
  const file = join(userData, "window-state.json");
  expect(existsSync(file)).toBe(true);
  expect(JSON.parse(readFileSync(file, "utf8")).bounds.width).toBeGreaterThan(0);
  // The afterEach closes the app again: relaunch so it has one to close.
  app = await electron.launch({
    executablePath: binary!,
    args: [join(import.meta.dirname, "..")],
    env: { ...process.env, TAILLAB_USER_DATA_DIR: userData },
  });
});
