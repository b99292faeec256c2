import { EventEmitter } from "node:events";
import type { HandlerDetails, Session, WebContents, WindowOpenHandlerResponse } from "electron";
import { describe, expect, it, vi } from "vitest";
import { denyAllPermissions, isExternalLink, lockToApp } from "./window-security.ts";

/** A WebContents as far as lockToApp uses it: events and a window-open handler. */
function fakeContents() {
  const emitter = new EventEmitter();
  let openHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  const contents = Object.assign(emitter, {
    setWindowOpenHandler: (handler: typeof openHandler) => (openHandler = handler),
  });
  const openExternal = vi.fn(async () => {});
  lockToApp(contents as unknown as WebContents, openExternal);
  return {
    openExternal,
    navigate(url: string) {
      const event = { url, preventDefault: vi.fn() };
      emitter.emit("will-navigate", event);
      return event.preventDefault.mock.calls.length > 0 ? "blocked" : "allowed";
    },
    open: (url: string) => openHandler!({ url } as HandlerDetails),
    emit: (name: string, event: unknown) => emitter.emit(name, event),
  };
}

describe("lockToApp", () => {
  it("lets the window move between the app's pages only", () => {
    const contents = fakeContents();
    expect(contents.navigate("app://taillab/index.html")).toBe("allowed");
    expect(contents.navigate("app://taillab/index.html#/runs")).toBe("allowed");
    for (const url of [
      "https://evil.example/",
      "http://127.0.0.1:9000/",
      "file:///etc/passwd",
      "app://other/index.html",
      "javascript:alert(1)",
      "not a url",
    ]) {
      expect(contents.navigate(url), url).toBe("blocked");
    }
  });

  it("never opens a window, and hands https links (only) to the user's browser", async () => {
    const contents = fakeContents();
    expect(contents.open("https://min.io/docs")).toEqual({ action: "deny" });
    expect(contents.openExternal).toHaveBeenCalledExactlyOnceWith("https://min.io/docs");
    for (const url of [
      "http://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "app://taillab/index.html",
      "smb://server/share",
    ]) {
      expect(contents.open(url), url).toEqual({ action: "deny" });
    }
    expect(contents.openExternal).toHaveBeenCalledOnce();
  });

  it("refuses <webview>", () => {
    const contents = fakeContents();
    const event = { preventDefault: vi.fn() };
    contents.emit("will-attach-webview", event);
    expect(event.preventDefault).toHaveBeenCalled();
  });
});

describe("isExternalLink", () => {
  it.each([
    ["https://example.com/a?b", true],
    ["HTTPS://EXAMPLE.COM", true],
    ["http://example.com", false],
    ["mailto:a@b.c", false],
    ["", false],
  ])("%s: %s", (url, expected) => {
    expect(isExternalLink(url)).toBe(expected);
  });
});

describe("denyAllPermissions", () => {
  it("refuses every request and every check", () => {
    const session = { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() };
    denyAllPermissions(session as unknown as Session);
    const [requestHandler] = session.setPermissionRequestHandler.mock.calls[0]!;
    const [checkHandler] = session.setPermissionCheckHandler.mock.calls[0]!;
    for (const permission of ["media", "geolocation", "notifications", "clipboard-read"]) {
      const callback = vi.fn();
      requestHandler({}, permission, callback);
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
      expect(checkHandler({}, permission)).toBe(false);
    }
  });
});
