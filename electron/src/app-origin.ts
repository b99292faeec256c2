/**
 * Where the app's own pages live: a privileged custom scheme instead of file://, so the UI has
 * a real origin (file:// pages share one with every local file) and IPC can tell it apart from
 * anything else a window might end up showing.
 */
export const APP_SCHEME = "app";
export const APP_HOST = "taillab";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** Whether `url` is one of the app's pages. (Node gives custom schemes the origin "null".) */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}
