/**
 * Builds the app's CJK font: Noto Sans SC (SIL Open Font License 1.1, from the npm package
 * @expo-google-fonts/noto-sans-sc) cut down to the characters the UI and reports use, as WOFF2,
 * so Chinese renders on a lab PC without CJK fonts. Run it again after adding Chinese text:
 *
 *   ./pnpm build:font
 *
 * It writes assets/fonts/taillab-cjk-{400,700}.woff2 (a test reads their character maps against
 * the sources) and the font's licence.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import subsetFont from "subset-font";
import { cjkCharactersOfSources } from "./cjk-characters.ts";

const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "assets", "fonts");
const FONT_PACKAGE = "@expo-google-fonts/noto-sans-sc";
const WEIGHTS = {
  400: "400Regular/NotoSansSC_400Regular.ttf",
  700: "700Bold/NotoSansSC_700Bold.ttf",
};

const packageDir = dirname(createRequire(import.meta.url).resolve(`${FONT_PACKAGE}/package.json`));
const characters = await cjkCharactersOfSources(ROOT);
for (const [weight, file] of Object.entries(WEIGHTS)) {
  const subset = await subsetFont(await readFile(join(packageDir, file)), characters, {
    targetFormat: "woff2",
  });
  await writeFile(join(OUT, `taillab-cjk-${weight}.woff2`), subset);
  console.log(
    `taillab-cjk-${weight}.woff2: ${characters.length} characters, ${subset.length} bytes`,
  );
}
await copyFile(join(packageDir, "LICENSE_FONT"), join(OUT, "OFL.txt"));
