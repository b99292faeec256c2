import { coded, englishOf } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { itemProblem, normalisePct, parseWeight, splitItems } from "./workload-text.ts";

describe("parseWeight", () => {
  it.each([
    ["70", 70],
    [" 70% ", 70],
    ["0.5", 0.5],
    [".5", 0.5],
    ["5.", 5],
  ])("reads %j as %d", (text, weight) => {
    expect(parseWeight(text)).toEqual({ ok: true, value: weight });
  });

  it.each([
    ["0", 'weight "0" must be greater than 0'],
    ["0%", 'weight "0%" must be greater than 0'],
    ["-3", 'weight "-3" must be greater than 0'],
    ["", 'weight "" is not a number; expected a positive number like 70'],
    ["1e3", 'weight "1e3" is not a number; expected a positive number like 70'],
    ["seventy", 'weight "seventy" is not a number; expected a positive number like 70'],
  ])("rejects %j", (text, reason) => {
    const parsed = parseWeight(text);
    expect(parsed.ok ? parsed : englishOf(parsed.reason)).toBe(reason);
  });
});

describe("splitItems", () => {
  it.each([
    ["a", ["a"]],
    [" a , b,c ", ["a", "b", "c"]],
    ["a,,b", ["a", "", "b"]],
    ["a,", ["a", ""]],
  ])("splits %j into %j", (text, items) => {
    expect(splitItems(text)).toEqual(items);
  });
});

describe("normalisePct", () => {
  it.each([
    [
      [70, 20, 5, 5],
      [70, 20, 5, 5],
    ],
    [
      [1, 3],
      [25, 75],
    ],
    [[2], [100]],
  ])("scales %j to %j", (weights, shares) => {
    expect(normalisePct(weights)).toEqual(shares);
  });
});

describe("itemProblem", () => {
  it("quotes the item before the problem", () => {
    const problem = coded("mixUnknownOperation", { name: "fetch", operations: "get" });
    expect(englishOf(itemProblem("fetch:10", problem))).toBe(
      '"fetch:10" — unknown operation "fetch"; expected one of get',
    );
  });
});
