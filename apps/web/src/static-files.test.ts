import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveUiPath } from "./static-files.ts";

const UI = resolve("/srv/ui");

describe("resolveUiPath", () => {
  it.each([
    ["/", join(UI, "index.html")],
    ["/index.html", join(UI, "index.html")],
    ["/assets/app-1a2b.js", join(UI, "assets", "app-1a2b.js")],
    ["/assets/", join(UI, "assets", "index.html")],
    ["/assets/a%20b.css", join(UI, "assets", "a b.css")],
    ["/assets/../index.html", join(UI, "index.html")],
  ])("%s is %s", (path, file) => {
    expect(resolveUiPath(UI, path)).toBe(file);
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
  ])("%s names no file of the UI", (path) => {
    expect(resolveUiPath(UI, path)).toBeNull();
  });
});
