import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from "@taillab/core";
import { LADDER_TICKS } from "@taillab/report";
import { describe, expect, it } from "vitest";
import { ladderLines, type LadderInput } from "./percentile-ladder-data.ts";

const stats = (p50: number) => ({
  min: p50 / 2,
  p25: p50,
  p50,
  p75: p50,
  p90: p50 * 2,
  p99: p50 * 3,
  p999: p50 * 4,
  p9999: p50 * 5,
  max: p50 * 6,
  mean: p50,
  stdev: 1,
});
// A phase with no successful request has no latency stats.
const empty = null;

function histogram(valuesUs: number[]): string {
  const recorded = createLatencyHistogram();
  for (const value of valuesUs) recordLatencyUs(recorded, value);
  return encodeHistogram(recorded);
}

describe("ladderLines", () => {
  it.each<[string, LadderInput, number[] | null]>([
    [
      "a histogram gives nine rungs",
      {
        label: "h",
        histogram: histogram(Array.from({ length: 10_000 }, (_, i) => 1000 + i)),
        stats: stats(1),
      },
      null,
    ],
    [
      "no histogram: the summary's five figures",
      { label: "s", histogram: null, stats: stats(2) },
      [2, 4, 6, 8, 10],
    ],
    [
      "an empty histogram: the summary's figures",
      { label: "e", histogram: histogram([]), stats: stats(1) },
      [1, 2, 3, 4, 5],
    ],
    ["no successful request: no line", { label: "n", histogram: null, stats: empty }, []],
  ])("%s", (_name, input, values) => {
    const lines = ladderLines([input]);
    if (values === null) {
      expect(lines[0]?.points.map((point) => point.percentile)).toEqual([
        50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
      ]);
      expect(lines[0]?.points[0]?.valueMs).toBeCloseTo(6, 0);
      return;
    }
    expect(lines.flatMap((line) => line.points.map((point) => point.valueMs))).toEqual(values);
  });

  it("keeps each line's colour when one is skipped, or takes the one given", () => {
    const lines = ladderLines([
      { label: "a", histogram: null, stats: empty },
      { label: "b", histogram: null, stats: stats(1) },
      { label: "c", histogram: null, stats: stats(1), color: { mode: "hedged" } },
    ]);
    expect(lines.map((line) => [line.label, line.color])).toEqual([
      ["b", { series: 1 }],
      ["c", { mode: "hedged" }],
    ]);
  });

  it("labels the nines axis at p50, p90, p99, p99.9 and p99.99", () => {
    expect(LADDER_TICKS.map((tick) => tick.label)).toEqual([
      "p50",
      "p90",
      "p99",
      "p99.9",
      "p99.99",
    ]);
    expect(LADDER_TICKS.map((tick) => Math.round(tick.value * 1000) / 1000)).toEqual([
      0.301, 1, 2, 3, 4,
    ]);
  });
});
