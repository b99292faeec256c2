import { readFile, stat } from "node:fs/promises";
import { extname, isAbsolute, relative, resolve, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The file of `uiDir` a URL path names, or null when it names none: undecodable, a NUL byte, or
 * outside the folder once `..`, encoded slashes and backslashes are resolved.
 */
export function resolveUiPath(uiDir: string, urlPath: string): string | null {
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
  const inside = relative(root, file);
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return null;
  }
  return file;
}

/** A regular file's bytes and content type, or null when there is no such file. */
export async function readUiFile(
  file: string,
): Promise<{ body: Buffer; contentType: string } | null> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  return {
    body: await readFile(file),
    contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
  };
}
