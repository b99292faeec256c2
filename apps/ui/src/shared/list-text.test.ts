import { describe, expect, it } from "vitest";
import { numberOrText, splitList } from "./list-text.ts";

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
