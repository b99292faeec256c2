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

/** The characters the app's CJK font face covers (its `unicode-range` in the UI's theme). */
const CJK_FACE_RANGE =
  /[\u2E80-\u2FDF\u3000-\u303F\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/gu;
const TEXT_NODE = 3;

/** A text whose Chinese was not all drawn by the expected font, and who drew what. */
export interface CjkFontMiss {
  text: string;
  fonts: { familyName: string; isCustomFont: boolean; glyphCount: number }[];
}

interface DomNode {
  nodeId: number;
  nodeType: number;
  nodeValue: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}

/**
 * Every text on the page that Chromium laid out with CJK characters, checked against the fonts
 * Chromium really drew it with (`CSS.getPlatformFontsForNode`): the web font `familyName` must
 * have drawn one glyph per CJK character. A system font drawing some of them, or an empty box,
 * is a miss. `checked` says how many texts were looked at.
 */
export async function cjkTextNotDrawnBy(
  page: Page,
  familyName: string,
): Promise<{ checked: number; misses: CjkFontMiss[] }> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send("DOM.enable");
    await session.send("CSS.enable");
    const { root } = (await session.send("DOM.getDocument", { depth: -1, pierce: true })) as {
      root: DomNode;
    };
    const misses: CjkFontMiss[] = [];
    let checked = 0;
    const valueNow = async (nodeId: number): Promise<string> =>
      ((await session.send("DOM.describeNode", { nodeId })) as { node: DomNode }).node.nodeValue;
    // The document was read once, and a text may change after (a button's "Loading…" becoming
    // "Refresh"): its fonts are asked for with its value unchanged around the question.
    const fontsOfText = async (nodeId: number) => {
      for (;;) {
        const text = await valueNow(nodeId);
        const { fonts } = await session.send("CSS.getPlatformFontsForNode", { nodeId });
        if ((await valueNow(nodeId)) === text) return { text, fonts };
      }
    };
    const visit = async (node: DomNode): Promise<void> => {
      if (node.nodeType === TEXT_NODE && node.nodeValue.match(CJK_FACE_RANGE) !== null) {
        const { text, fonts } = await fontsOfText(node.nodeId);
        const cjkCount = text.match(CJK_FACE_RANGE)?.length ?? 0;
        // A text that is not laid out (display: none, a closed list's option) draws nothing.
        if (fonts.length > 0) {
          checked += 1;
          const drawnByFace = fonts
            .filter((font) => font.isCustomFont && font.familyName === familyName)
            .reduce((sum, font) => sum + font.glyphCount, 0);
          if (drawnByFace !== cjkCount) misses.push({ text: text.trim(), fonts });
        }
      }
      for (const child of [
        ...(node.shadowRoots ?? []),
        ...(node.children ?? []),
        ...(node.contentDocument ? [node.contentDocument] : []),
      ]) {
        await visit(child);
      }
    };
    await visit(root);
    return { checked, misses };
  } finally {
    await session.detach();
  }
}
