import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Net, Protocol } from "electron";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { APP_CONTENT_SECURITY_POLICY, appUrlPath, serveAppScheme } from "./app-protocol.ts";

describe("appUrlPath", () => {
  it.each([
    ["app://taillab/", "/"],
    ["app://taillab/index.html", "/index.html"],
    ["app://taillab/assets/index-1a2b.js?v=1", "/assets/index-1a2b.js"],
    ["app://taillab/assets/a%20b.css", "/assets/a%20b.css"],
  ])("%s is %s", (url, path) => {
    expect(appUrlPath(url)).toBe(path);
  });

  it.each(["app://other/index.html", "https://taillab/index.html", "not a url"])(
    "%s is no app URL",
    (url) => {
      expect(appUrlPath(url)).toBeNull();
    },
  );
});

describe("serveAppScheme", () => {
  let folder: string;
  let ui: string;
  beforeAll(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), "taillab-app-scheme-")));
    ui = join(folder, "ui");
    mkdirSync(join(ui, "assets"), { recursive: true });
    writeFileSync(join(ui, "index.html"), "<html></html>");
    writeFileSync(join(ui, "assets", "index.js.map"), "{}");
    writeFileSync(join(folder, "secret.txt"), "outside the UI");
    symlinkSync(join(folder, "secret.txt"), join(ui, "assets", "leak.js"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  function serve() {
    let handler: ((request: Request) => Promise<Response>) | null = null;
    const protocol = { handle: vi.fn((_scheme: string, h: typeof handler) => (handler = h)) };
    const net = {
      fetch: vi.fn(
        async () => new Response("<html></html>", { headers: { "content-type": "text/html" } }),
      ),
    };
    serveAppScheme(protocol as unknown as Protocol, net as unknown as Net, ui);
    return { protocol, net, get: (url: string) => handler!(new Request(url)) };
  }

  it("answers app URLs with the UI's files and the CSP", async () => {
    const { protocol, net, get } = serve();
    expect(protocol.handle).toHaveBeenCalledWith("app", expect.any(Function));
    const answer = await get("app://taillab/index.html");
    expect(net.fetch).toHaveBeenCalledWith(pathToFileURL(join(ui, "index.html")).toString());
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html");
    expect(answer.headers.get("content-security-policy")).toBe(APP_CONTENT_SECURITY_POLICY);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(APP_CONTENT_SECURITY_POLICY).toMatch(/default-src 'self'; script-src 'self';/);
    expect(APP_CONTENT_SECURITY_POLICY).toMatch(/object-src 'none'.*frame-ancestors 'none'/);
  });

  it("answers 404 outside the UI folder, through a link out of it and for a source map, without reading anything", async () => {
    const { net, get } = serve();
    for (const url of [
      "app://taillab/..%2f..%2fetc/passwd",
      "app://taillab/assets/leak.js",
      "app://taillab/assets/index.js.map",
      "app://other/index.html",
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
    expect(net.fetch).not.toHaveBeenCalled();
  });
});
