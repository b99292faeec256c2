import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cjkCharacters, cjkCharactersOfSources } from "./cjk-characters.ts";
import { fontCodePoints } from "./font-coverage.ts";

const ROOT = join(import.meta.dirname, "..");

describe("the app's CJK font", () => {
  it("picks out CJK characters and punctuation, each once", () => {
    expect(cjkCharacters("p99 延迟（毫秒）：延迟 · KiB")).toBe(
      "（）：延毫秒迟".split("").sort().join(""),
    );
  });

  it.each(["400", "700"])(
    "the %s weight's character map covers every Chinese character the UI and the reports use (else: ./pnpm build:font)",
    async (weight) => {
      const covered = await fontCodePoints(join(ROOT, `assets/fonts/taillab-cjk-${weight}.woff2`));
      const missing = [...(await cjkCharactersOfSources(ROOT))].filter(
        (char) => !covered.has(char.codePointAt(0) as number),
      );
      expect(missing.join(""), "characters the shipped font has no glyph for").toBe("");
    },
  );
});
