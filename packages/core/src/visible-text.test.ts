import { describe, expect, it } from "vitest";
import { visibleText, withoutControlCharacters } from "./visible-text.ts";

describe("visibleText", () => {
  it.each([
    ["HTTP 500", "HTTP 500"],
    ["\u202E005 PTTH", "\\u202E005 PTTH"],
    ["run\u2066x\u2069", "run\\u2066x\\u2069"],
    ["\u001b]0;pwned\u0007lab", "\\u001B]0;pwned\\u0007lab"],
    ["csi\u009b31m", "csi\\u009B31m"],
    ["over\rwrite\b", "over\\u000Dwrite\\u0008"],
    ["two\nlines", "two\nlines"],
    ["a\ttab", "a\\u0009tab"],
    ["简体中文 ok", "简体中文 ok"],
  ])("%j is shown as %j", (text, shown) => {
    expect(visibleText(text)).toBe(shown);
  });

  it("withoutControlCharacters drops what visibleText escapes", () => {
    expect(withoutControlCharacters("\u202EHTTP\u001b[2J 500\n")).toBe("HTTP[2J 500\n");
  });
});
