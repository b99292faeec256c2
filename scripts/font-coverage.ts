import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Blob, Face } from "harfbuzzjs";

// wawoff2 (Google's WOFF2 decoder, as WebAssembly) ships no types.
const { decompress } = createRequire(import.meta.url)("wawoff2") as {
  decompress(woff2: Uint8Array): Promise<Uint8Array>;
};

/** The code points a WOFF2 font's character map gives a glyph, as HarfBuzz reads the font. */
export async function fontCodePoints(woff2File: string): Promise<Set<number>> {
  const sfnt = await decompress(await readFile(woff2File));
  return new Set(new Face(new Blob(sfnt)).collectUnicodes());
}
