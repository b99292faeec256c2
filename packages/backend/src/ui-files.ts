import { realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, relative, resolve, sep } from "node:path";

/**
 * Which files of the built UI a host serves (the browser host over HTTP, the desktop app on its
 * `app:` scheme): regular files inside the UI folder, once the path is decoded, `..` resolved and
 * links followed, and no source maps. Imported by hosts as `@taillab/backend/ui-files`, which
 * carries nothing else of the backend.
 */

/** Source maps hold the UI's whole source (megabytes of it): nothing a page needs to run. */
const NOT_SERVED = new Set([".map"]);

/**
 * The path in `uiDir` that a URL's (still percent-encoded) path names, or null: undecodable, a
 * NUL byte, a source map, or outside the folder once `..`, encoded slashes and backslashes are
 * resolved. `/` and folders name their index.html. Links are not looked at here (see findUiFile).
 */
export function uiFilePath(uiDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  if (decoded.endsWith("/")) decoded += "index.html";
  const root = resolve(uiDir);
  const file = resolve(root, `.${decoded.startsWith("/") ? "" : "/"}${decoded}`);
  if (!isInside(root, file) || NOT_SERVED.has(extname(file).toLowerCase())) return null;
  return file;
}

/**
 * The real file to serve for a URL path, or null when there is none: what uiFilePath refuses,
 * a missing file, a folder, or a link (the file or a folder on its way) that leads out of the
 * UI folder — the answer is the link's target, so what is read is what was checked.
 */
export async function findUiFile(uiDir: string, urlPath: string): Promise<string | null> {
  const file = uiFilePath(uiDir, urlPath);
  if (file === null) return null;
  const [root, real] = await Promise.all([realpath(uiDir), realpath(file).catch(() => null)]);
  if (real === null || !isInside(root, real)) return null;
  const info = await stat(real).catch(() => null);
  return info?.isFile() ? real : null;
}

function isInside(root: string, file: string): boolean {
  const inside = relative(root, file);
  return !(inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside));
}
