import type { Session, WebContents } from "electron";
import { isAppUrl } from "./app-origin.ts";

/** Links the app may hand to the user's browser: https only (no file:, javascript:, http:). */
export function isExternalLink(url: string): boolean {
  try {
    return new URL(url).protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The window shows the app's pages and nothing else: navigation away is cancelled, new windows
 * are never created (an https link goes to the user's browser instead), <webview> is refused.
 */
export function lockToApp(
  contents: WebContents,
  openExternal: (url: string) => Promise<void>,
): void {
  contents.on("will-navigate", (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) {
      openExternal(url).catch((error: unknown) => {
        process.stderr.write(`TailLab: could not open ${url}: ${String(error)}\n`);
      });
    }
    return { action: "deny" };
  });
}

/** The UI needs no camera, location, notifications or any other permission: all are refused. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
