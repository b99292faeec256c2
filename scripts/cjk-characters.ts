import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Where the Chinese the app and its reports show is written: every source file of the UI and the
 * report's messages. A character in a comment costs a glyph, not a mistake.
 */
export const CJK_SOURCES = ["apps/ui/src", "packages/report/src"];

/** Han ideographs, CJK and full-width punctuation: what a Latin font does not have. */
const CJK =
  /[\u2E80-\u2FDF\u3000-\u303F\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/gu;

/** The CJK characters of `text`, each once, in code point order. */
export function cjkCharacters(text: string): string {
  return [...new Set(text.match(CJK) ?? [])].sort().join("");
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx|css|html)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * What the browser writes in Chinese itself: dates (年月日, 上午/下午) and lists (和), as the
 * app formats them with Intl.
 */
function intlTexts(): string[] {
  const dates = Array.from({ length: 24 }, (_, hour) => new Date(Date.UTC(2025, 0, 1, hour)));
  const formats = [
    new Intl.DateTimeFormat("zh-CN", { dateStyle: "medium", timeStyle: "short" }),
    new Intl.DateTimeFormat("zh-CN", { dateStyle: "full", timeStyle: "long" }),
  ];
  return [
    ...dates.flatMap((date) => formats.map((format) => format.format(date))),
    new Intl.ListFormat("zh-CN").format(["a", "b", "c"]),
  ];
}

/** Every CJK character the app's and the reports' sources hold, below `root`, and Intl's. */
export async function cjkCharactersOfSources(root: string): Promise<string> {
  const files = (await Promise.all(CJK_SOURCES.map((dir) => sourceFiles(join(root, dir))))).flat();
  const texts = await Promise.all(files.map((file) => readFile(file, "utf8")));
  return cjkCharacters([...texts, ...intlTexts()].join("\n"));
}
