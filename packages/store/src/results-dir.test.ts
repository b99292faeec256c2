import { describe, expect, it } from "vitest";
import { defaultResultsDir } from "./results-dir.ts";

describe("defaultResultsDir", () => {
  it.each([
    [{ TAILLAB_RESULTS_DIR: "/data/runs" }, "linux", "/data/runs"],
    [{}, "linux", "/home/ada/.local/share/taillab/runs"],
    [{ XDG_DATA_HOME: "/xdg" }, "linux", "/xdg/taillab/runs"],
    [{ XDG_DATA_HOME: "relative" }, "linux", "/home/ada/.local/share/taillab/runs"],
    [{}, "darwin", "/home/ada/Library/Application Support/TailLab/runs"],
    [
      { APPDATA: "C:\\Users\\ada\\AppData\\Roaming" },
      "win32",
      "C:\\Users\\ada\\AppData\\Roaming\\TailLab\\runs",
    ],
    [{ TAILLAB_RESULTS_DIR: "D:\\runs" }, "win32", "D:\\runs"],
  ] as const)("env %j on %s → %s", (env, platform, expected) => {
    expect(defaultResultsDir({ env, platform, home: "/home/ada" })).toBe(expected);
  });
});
