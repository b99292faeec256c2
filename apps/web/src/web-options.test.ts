import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultDataDir, parseWebOptions, type PlatformContext } from "./web-options.ts";

const linux: PlatformContext = { env: {}, platform: "linux", home: "/home/ada" };

describe("parseWebOptions", () => {
  it("defaults to a free port and the user's data folder", () => {
    const options = parseWebOptions([], linux);
    expect(options.port).toBe(0);
    expect(options.dataDir).toBe("/home/ada/.local/share/taillab");
    expect(options.resultsDir).toBe("/home/ada/.local/share/taillab/runs");
    expect(options.uiDir).toBe(resolve(import.meta.dirname, "../../ui/dist"));
  });

  it("takes folders and a port from flags", () => {
    const options = parseWebOptions(
      ["--port", "8080", "--data-dir", "/d", "--results", "/r", "--ui-dir", "/u"],
      linux,
    );
    expect(options).toEqual({ port: 8080, dataDir: "/d", resultsDir: "/r", uiDir: "/u" });
  });

  it("keeps the data folder where it is when only the results move", () => {
    const context = { ...linux, env: { TAILLAB_RESULTS_DIR: "/elsewhere/runs" } };
    const options = parseWebOptions([], context);
    expect(options.resultsDir).toBe("/elsewhere/runs");
    expect(options.dataDir).toBe("/home/ada/.local/share/taillab");
  });

  it.each([
    [{ ...linux, env: { XDG_DATA_HOME: "/xdg" } }, "/xdg/taillab"],
    [
      { env: {}, platform: "darwin", home: "/Users/ada" },
      "/Users/ada/Library/Application Support/TailLab",
    ],
    [
      {
        env: { APPDATA: "C:\\Users\\ada\\AppData\\Roaming" },
        platform: "win32",
        home: "C:\\Users\\ada",
      },
      "C:\\Users\\ada\\AppData\\Roaming\\TailLab",
    ],
  ] as [PlatformContext, string][])("data folder on %o is %s", (context, expected) => {
    expect(defaultDataDir(context)).toBe(expected);
  });

  it("names the flag at fault", () => {
    expect(() => parseWebOptions(["--port", "http"], linux)).toThrow(/^--port: expected a port/);
    expect(() => parseWebOptions(["--port", "70000"], linux)).toThrow(/^--port/);
    expect(() => parseWebOptions(["--colour"], linux)).toThrow(/--colour/);
  });
});
