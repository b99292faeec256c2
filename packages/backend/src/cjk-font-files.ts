import type { CjkFont } from "@taillab/report";
import { readFile } from "node:fs/promises";
import { extname } from "node:path";

/**
 * Where the app's CJK font files are: assets/fonts of the repository beside the sources, or
 * fonts/ beside a bundle (the CLI's and the desktop app's builds copy them there).
 */
function fontsFolder(): URL {
  const fromSources = extname(new URL(import.meta.url).pathname) === ".ts";
  return new URL(fromSources ? "../../../assets/fonts/" : "./fonts/", import.meta.url);
}

/** The app's CJK font as a Chinese HTML report carries it, so it reads without CJK fonts. */
export async function readCjkFont(): Promise<CjkFont> {
  const base64 = async (weight: number) =>
    (await readFile(new URL(`taillab-cjk-${weight}.woff2`, fontsFolder()))).toString("base64");
  const [regular, bold] = await Promise.all([base64(400), base64(700)]);
  return { regular, bold };
}
