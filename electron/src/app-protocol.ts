import { pathToFileURL } from "node:url";
import { findUiFile } from "@taillab/backend/ui-files";
import type { Net, Protocol } from "electron";
import { APP_HOST, APP_SCHEME } from "./app-origin.ts";

/**
 * The app's CSP, sent as a header on every page of the app scheme. It matches the UI's own meta
 * policy (inline styles for React and Chart.js, data:/blob: images) and forbids the rest: no
 * script or connection anywhere but the app itself, no plugins, no framing.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Before `ready`: the app scheme behaves like https (standard URLs, secure context, fetch). */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

/**
 * After `ready`: `app://taillab/<path>` answers the file at <path> under `uiDir`, and nothing
 * else: not a file a link leads to outside the folder, not a source map (see findUiFile).
 */
export function serveAppScheme(protocol: Protocol, net: Net, uiDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const urlPath = appUrlPath(request.url);
    const file = urlPath === null ? null : await findUiFile(uiDir, urlPath);
    if (file === null) return new Response("not found", { status: 404 });
    const answer = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(answer.headers);
    headers.set("content-security-policy", APP_CONTENT_SECURITY_POLICY);
    headers.set("x-content-type-options", "nosniff");
    return new Response(answer.body, { status: answer.status, headers });
  });
}

/** The (still percent-encoded) path of an app URL, or null for another scheme or host. */
export function appUrlPath(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
    return parsed.pathname;
  } catch {
    return null;
  }
}
