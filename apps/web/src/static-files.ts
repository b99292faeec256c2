import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { findUiFile } from "@taillab/backend/ui-files";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
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
 * The bytes and content type of the UI file a URL path names, or null when the host serves no
 * such file (see findUiFile: outside the UI folder, through a link or not, or a source map).
 */
export async function readUiFile(
  uiDir: string,
  urlPath: string,
): Promise<{ body: Buffer; contentType: string } | null> {
  const file = await findUiFile(uiDir, urlPath);
  if (file === null) return null;
  return {
    body: await readFile(file),
    contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
  };
}
