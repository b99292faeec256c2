import { describe, expect, it } from "vitest";
import { modeVerdicts, type ModeEntry } from "./mode-comparison.ts";

function entry(overrides: Partial<ModeEntry>): ModeEntry {
  return {
    runIndex: 0,
    mode: "normal",
    p50Ms: 5,
    p99Ms: 20,
    p999Ms: 1000,
    extraPct: 0,
    wastedBytes: 0,
    wonByBackup: 0,
    cancelled: 0,
    requests: 3000,
    hedgeDelayMs: null,
    budgetPct: null,
    ...overrides,
  };
}

const normal = entry({});
const hedged = (overrides: Partial<ModeEntry>) =>
  entry({
    runIndex: 1,
    mode: "hedged",
    hedgeDelayMs: 12,
    budgetPct: 20,
    extraPct: 5,
    ...overrides,
  });

describe("mode verdicts", () => {
  it("says each mode's p99.9 change against normal and its cost", () => {
    const verdicts = modeVerdicts([
      normal,
      hedged({ p999Ms: 320, extraPct: 7.4 }),
      entry({ runIndex: 2, mode: "tied", p999Ms: 30, extraPct: 100, budgetPct: 100 }),
    ]);
    expect(verdicts).toEqual([
      { runIndex: 1, mode: "hedged", p999ChangePct: -68, extraPct: 7.4, noGain: null },
      { runIndex: 2, mode: "tied", p999ChangePct: -97, extraPct: 100, noGain: null },
    ]);
  });

  it.each([
    ["p99.9 of too few requests", { requests: 900 }, "tooFewRequests"],
    ["a budget spent", { extraPct: 19.5 }, "budgetSpent"],
    ["backups sent after normal's p99.9", { hedgeDelayMs: 1200 }, "delayAboveTail"],
    ["nothing in its figures", {}, "noise"],
  ] as const)("when hedged is no better, names %s", (_, overrides, reason) => {
    const [verdict] = modeVerdicts([normal, hedged({ p999Ms: 1100, ...overrides })]);
    expect(verdict?.noGain).toBe(reason);
    expect(verdict?.p999ChangePct).toBeCloseTo(10, 9);
  });

  it("has nothing to say without a normal run", () => {
    expect(modeVerdicts([hedged({})])).toEqual([]);
  });
});
