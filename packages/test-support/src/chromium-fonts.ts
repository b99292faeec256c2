import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";

/** Latin fonts only: what a lab PC without CJK fonts has. */
const LATIN_FONT_DIRS = [
  "/usr/share/fonts/truetype/dejavu",
  "/usr/share/fonts/truetype/liberation",
];

/**
 * A fontconfig that sees the Latin fonts only, written in `folder`: launch Chromium with
 * `env: { ...process.env, FONTCONFIG_FILE }` and it has no system font for Chinese.
 */
export async function latinOnlyFontconfig(folder: string): Promise<string> {
  const file = join(folder, "fonts.conf");
  await writeFile(
    file,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
${LATIN_FONT_DIRS.map((dir) => `  <dir>${dir}</dir>`).join("\n")}
  <cachedir>${join(folder, "font-cache")}</cachedir>
</fontconfig>
`,
  );
  return file;
}

/** The fonts Chromium really drew the text of `selector` with, as its DevTools say. */
export async function fontsDrawing(
  page: Page,
  selector: string,
): Promise<{ familyName: string; isCustomFont: boolean }[]> {
  const session = await page.context().newCDPSession(page);
  await session.send("DOM.enable");
  await session.send("CSS.enable");
  const { root } = await session.send("DOM.getDocument");
  const { nodeId } = await session.send("DOM.querySelector", { nodeId: root.nodeId, selector });
  const { fonts } = await session.send("CSS.getPlatformFontsForNode", { nodeId });
  await session.detach();
  return fonts;
}
