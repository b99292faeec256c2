import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_SIZE,
  loadWindowState,
  restorableBounds,
  saveWindowState,
  type WindowState,
} from "./window-state.ts";

const STATE: WindowState = { bounds: { x: 100, y: 80, width: 1200, height: 760 }, maximized: true };
const SCREEN = { x: 0, y: 0, width: 1920, height: 1080 };

let folder: string;
let file: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "taillab-window-"));
  file = join(folder, "window-state.json");
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("window state file", () => {
  it("restores what was saved, and leaves no temporary file", async () => {
    await saveWindowState(file, STATE);
    expect(await loadWindowState(file)).toEqual(STATE);
    expect(readdirSync(folder)).toEqual(["window-state.json"]);
    await saveWindowState(file, { ...STATE, maximized: false });
    expect(JSON.parse(readFileSync(file, "utf8")).maximized).toBe(false);
  });

  it.each([
    ["missing", null],
    ["not JSON", "{"],
    ["no bounds", JSON.stringify({ maximized: true })],
    ["bounds not numbers", JSON.stringify({ bounds: { x: "a", y: 0, width: 1, height: 1 } })],
  ])("gives null when the file is %s", async (_case, content) => {
    if (content !== null) writeFileSync(file, content);
    expect(await loadWindowState(file)).toBeNull();
  });

  it("fails loudly when the folder cannot be written", async () => {
    await expect(saveWindowState(join(folder, "missing", "state.json"), STATE)).rejects.toThrow(
      /ENOENT/,
    );
  });
});

describe("restorableBounds", () => {
  it("uses the default size the first time", () => {
    expect(restorableBounds(null, [SCREEN])).toEqual(DEFAULT_SIZE);
  });

  it("keeps the saved place when it is on a display", () => {
    expect(restorableBounds(STATE, [SCREEN])).toEqual(STATE.bounds);
    const second = { x: 1920, y: 0, width: 2560, height: 1440 };
    const onSecond = { ...STATE, bounds: { ...STATE.bounds, x: 2000 } };
    expect(restorableBounds(onSecond, [SCREEN, second])).toEqual(onSecond.bounds);
  });

  it("keeps only the size when the display it was on is gone", () => {
    const offScreen = { ...STATE, bounds: { ...STATE.bounds, x: 2000 } };
    expect(restorableBounds(offScreen, [SCREEN])).toEqual({ width: 1200, height: 760 });
    const sliver = { ...STATE, bounds: { ...STATE.bounds, x: 1880 } };
    expect(restorableBounds(sliver, [SCREEN])).toEqual({ width: 1200, height: 760 });
  });
});
