import { describe, expect, it } from "vitest";
import { englishOf } from "./coded-message.ts";
import { parseBudgetPercent, parseHedgeDelay } from "./tail-options.ts";

describe("parseHedgeDelay", () => {
  it.each([
    ["30ms", { kind: "fixed", delayMs: 30 }],
    ["0.5s", { kind: "fixed", delayMs: 500 }],
    ["250us", { kind: "fixed", delayMs: 0.25 }],
    ["0ms", { kind: "fixed", delayMs: 0 }],
    ["p95", { kind: "percentile", percentile: 95 }],
    ["p99.9", { kind: "percentile", percentile: 99.9 }],
    ["P50", { kind: "percentile", percentile: 50 }],
  ])("reads %j", (text, value) => {
    expect(parseHedgeDelay(text)).toEqual({ ok: true, value });
  });

  it.each(["", "abc", "30", "-5ms", "p", "p0", "p100", "p1000", "p95%", "95p"])(
    "rejects %j with the forms it expects",
    (text) => {
      const result = parseHedgeDelay(text);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(englishOf(result.reason)).toContain(`"${text}"`);
      expect(englishOf(result.reason)).toContain(
        "expected a duration like 30ms or a percentile like p95",
      );
    },
  );
});

describe("parseBudgetPercent", () => {
  it.each([
    ["5%", 5],
    ["0%", 0],
    ["0.5%", 0.5],
    ["100%", 100],
    [" 10 % ", 10],
  ])("reads %j as %d", (text, percent) => {
    expect(parseBudgetPercent(text)).toEqual({ ok: true, percent });
  });

  it.each([
    ["5", "the % sign is required"],
    ["abc", "is not a percentage"],
    ["", "is not a percentage"],
    ["-5%", "is negative"],
    ["150%", "more than 100%"],
    ["5%%", "is not a percentage"],
  ])("rejects %j: %s", (text, reason) => {
    const result = parseBudgetPercent(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(englishOf(result.reason)).toContain(reason);
    expect(englishOf(result.reason)).toContain("expected a percentage like 5%");
  });
});
