import { describe, expect, it } from "vitest";
import { joinSentences, numberOrText, splitList } from "./list-text.ts";

describe("splitList", () => {
  it.each([
    ["1, 4, 8", ["1", "4", "8"]],
    ["4KiB,1MiB", ["4KiB", "1MiB"]],
    ["1 MiB, 2 MiB", ["1 MiB", "2 MiB"]],
    ["1，4；8", ["1", "4", "8"]],
    ["8, ", ["8"]],
    ["", []],
  ])("%j → %j", (text, items) => {
    expect(splitList(text)).toEqual(items);
  });
});

describe("numberOrText", () => {
  it.each([
    ["8", 8],
    [" 2.5 ", 2.5],
    ["-1", -1],
    ["abc", "abc"],
    ["4KiB", "4KiB"],
    ["", undefined],
  ])("%j → %j", (text, value) => {
    expect(numberOrText(text)).toEqual(value);
  });
});

describe("joinSentences", () => {
  it.each([
    [
      "en",
      ["Errors per second.", "Stacked by error code."],
      "Errors per second. Stacked by error code.",
    ],
    ["zh-CN", ["每秒失败的请求。", "按错误代码堆叠。"], "每秒失败的请求。按错误代码堆叠。"],
    ["en", ["One.", ""], "One."],
  ])("%s: %j", (language, sentences, text) => {
    expect(joinSentences(sentences, language)).toBe(text);
  });
});
