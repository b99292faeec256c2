import { describe, expect, it } from "vitest";
import { englishOf } from "./coded-message.ts";
import { parseDuration, parseRate } from "./duration.ts";

describe("parseDuration", () => {
  it.each([
    ["30s", 30_000],
    ["500ms", 500],
    ["2m", 120_000],
    ["2min", 120_000],
    ["1.5s", 1500],
    ["250us", 0.25],
    ["250µs", 0.25],
    [".5s", 500],
    ["1h", 3_600_000],
    ["0ms", 0],
    [" 10 ms ", 10],
    ["30S", 30_000],
  ])("reads %j as %d ms", (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it.each([
    ["abc", "is not a duration"],
    ["", "is not a duration"],
    ["-5ms", "is negative"],
    ["30", "the unit is required"],
    ["5days", 'unknown unit "days"'],
    ["1e3ms", "is not a duration"],
    ["1.2.3s", "is not a duration"],
    ["5ms?", "is not a duration"],
  ])("rejects %j: %s", (text, reason) => {
    const result = parseDuration(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(englishOf(result.reason)).toContain(reason);
    expect(englishOf(result.reason)).toContain("expected");
  });
});

describe("parseRate", () => {
  it.each([
    ["500/s", 500],
    ["500", 500],
    ["30/min", 0.5],
    ["30/m", 0.5],
    ["7200/h", 2],
    ["2.5/s", 2.5],
    ["100 / sec", 100],
  ])("reads %j as %d Hz", (text, rateHz) => {
    expect(parseRate(text)).toEqual({ ok: true, rateHz });
  });

  it.each([
    ["abc", "is not a rate"],
    ["", "is not a rate"],
    ["0/s", "must be greater than 0"],
    ["0", "must be greater than 0"],
    ["-5/s", "is negative"],
    ["5/h?", "is not a rate"],
    ["5/day", 'unknown time unit "day"'],
    ["5/", "is not a rate"],
  ])("rejects %j: %s", (text, reason) => {
    const result = parseRate(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(englishOf(result.reason)).toContain(reason);
  });
});
