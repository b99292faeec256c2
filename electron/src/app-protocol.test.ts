import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Net, Protocol } from "electron";
import { describe, expect, it, vi } from "vitest";
import { APP_CONTENT_SECURITY_POLICY, appFilePath, serveAppScheme } from "./app-protocol.ts";

const UI = resolve("/opt/taillab/ui");

describe("appFilePath", () => {
  it.each([
    ["app://taillab/", join(UI, "index.html")],
    ["app://taillab/index.html", join(UI, "index.html")],
    ["app://taillab/assets/index-1a2b.js?v=1", join(UI, "assets", "index-1a2b.js")],
    ["app://taillab/assets/a%20b.css", join(UI, "assets", "a b.css")],
  ])("%s is %s", (url, file) => {
    expect(appFilePath(UI, url)).toBe(file);
  });

  it.each([
    "app://other/index.html",
    "https://taillab/index.html",
    "app://taillab/..%2f..%2fetc/passwd",
    "app://taillab/%2e%2e%2fsecret",
    "app://taillab/assets/..%2f..%2f..%2fsecret",
    "app://taillab/index.html%00",
    "app://taillab/%E0%A4%A",
  ])("%s names no file of the UI", (url) => {
    expect(appFilePath(UI, url)).toBeNull();
  });
});

describe("serveAppScheme", () => {
  function serve() {
    let handler: ((request: Request) => Promise<Response>) | null = null;
    const protocol = { handle: vi.fn((_scheme: string, h: typeof handler) => (handler = h)) };
    const net = {
      fetch: vi.fn(
        async () => new Response("<html></html>", { headers: { "content-type": "text/html" } }),
      ),
    };
    serveAppScheme(protocol as unknown as Protocol, net as unknown as Net, UI);
    return { protocol, net, get: (url: string) => handler!(new Request(url)) };
  }

  it("answers app URLs with the UI's files and the CSP", async () => {
    const { protocol, net, get } = serve();
    expect(protocol.handle).toHaveBeenCalledWith("app", expect.any(Function));
    const answer = await get("app://taillab/index.html");
    expect(net.fetch).toHaveBeenCalledWith(pathToFileURL(join(UI, "index.html")).toString());
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html");
    expect(answer.headers.get("content-security-policy")).toBe(APP_CONTENT_SECURITY_POLICY);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(APP_CONTENT_SECURITY_POLICY).toMatch(/default-src 'self'; script-src 'self';/);
    expect(APP_CONTENT_SECURITY_POLICY).toMatch(/object-src 'none'.*frame-ancestors 'none'/);
  });

  it("answers 404 outside the UI folder, without reading anything", async () => {
    const { net, get } = serve();
    const answer = await get("app://taillab/..%2f..%2fetc/passwd");
    expect(answer.status).toBe(404);
    expect(net.fetch).not.toHaveBeenCalled();
  });
});
