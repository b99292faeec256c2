import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cjkCharacters, cjkCharactersOfSources } from "./cjk-characters.ts";

const ROOT = join(import.meta.dirname, "..");

describe("the app's CJK font", () => {
  it("picks out CJK characters and punctuation, each once", () => {
    expect(cjkCharacters("p99 延迟（毫秒）：延迟 · KiB")).toBe(
      "（）：延毫秒迟".split("").sort().join(""),
    );
  });

  it("covers every Chinese character the UI and the reports use (else: ./pnpm build:font)", async () => {
    const covered = new Set(
      await readFile(join(ROOT, "assets/fonts/taillab-cjk.chars.txt"), "utf8"),
    );
    const missing = [...(await cjkCharactersOfSources(ROOT))].filter((char) => !covered.has(char));
    expect(missing.join(""), "characters the shipped font lacks").toBe("");
  });
});
