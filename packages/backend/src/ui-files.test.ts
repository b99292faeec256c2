import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUiFile, uiFilePath } from "./ui-files.ts";

const UI = resolve("/srv/ui");

describe("uiFilePath", () => {
  it.each([
    ["/", join(UI, "index.html")],
    ["/index.html", join(UI, "index.html")],
    ["/assets/app-1a2b.js", join(UI, "assets", "app-1a2b.js")],
    ["/assets/", join(UI, "assets", "index.html")],
    ["/assets/a%20b.css", join(UI, "assets", "a b.css")],
    ["/assets/../index.html", join(UI, "index.html")],
  ])("%s is %s", (path, file) => {
    expect(uiFilePath(UI, path)).toBe(file);
  });

  it.each([
    "/..",
    "/../package.json",
    "/%2e%2e/package.json",
    "/..%2fpackage.json",
    "/assets/..%2f..%2f..%2fetc/passwd",
    "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "/index.html%00.png",
    "/%E0%A4%A",
    "/assets/app-1a2b.js.map",
    "/assets/APP.JS.MAP",
  ])("%s names no file the UI serves", (path) => {
    expect(uiFilePath(UI, path)).toBeNull();
  });
});

describe("findUiFile on disk", () => {
  let folder: string;
  let uiDir: string;
  beforeAll(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), "taillab-ui-files-")));
    uiDir = join(folder, "ui");
    mkdirSync(join(uiDir, "assets"), { recursive: true });
    writeFileSync(join(uiDir, "index.html"), "<html></html>");
    writeFileSync(join(uiDir, "assets", "app.js"), "ui();");
    writeFileSync(join(uiDir, "assets", "app.js.map"), "{}");
    writeFileSync(join(folder, "secret.txt"), "outside");
    mkdirSync(join(folder, "private"));
    writeFileSync(join(folder, "private", "key.txt"), "outside");
    symlinkSync(join(folder, "secret.txt"), join(uiDir, "assets", "leak.js"));
    symlinkSync(join(folder, "private"), join(uiDir, "assets", "private"));
    symlinkSync(join(uiDir, "assets", "app.js"), join(uiDir, "alias.js"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("answers the UI's own files, through links that stay inside it", async () => {
    expect(await findUiFile(uiDir, "/")).toBe(join(uiDir, "index.html"));
    expect(await findUiFile(uiDir, "/assets/app.js")).toBe(join(uiDir, "assets", "app.js"));
    expect(await findUiFile(uiDir, "/alias.js")).toBe(join(uiDir, "assets", "app.js"));
  });

  it("a link out of the UI folder serves nothing, nor a folder, a missing file or a source map", async () => {
    for (const path of [
      "/assets/leak.js",
      "/assets/private/key.txt",
      "/assets",
      "/assets/none.js",
      "/assets/app.js.map",
    ]) {
      expect(await findUiFile(uiDir, path), path).toBeNull();
    }
  });
});
