import type { PhaseSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from "./latency-histogram.ts";
import { summarizePhase } from "./phase-summary.ts";
import { mergeRepeatedPhases, type RepeatedPhase } from "./repetition-merge.ts";

function repetition(latenciesUs: number[], durationMs: number): RepeatedPhase {
  const latency = createLatencyHistogram();
  for (const value of latenciesUs) recordLatencyUs(latency, value);
  const summary: PhaseSummary = summarizePhase({
    op: "GET",
    requests: latenciesUs.length,
    errorsByCode: { SlowDown: 1 },
    bytes: latenciesUs.length * 100,
    durationMs,
    latency,
    ttfb: latency,
  });
  const encoded = encodeHistogram(latency);
  return { summary, histograms: { latency: encoded, ttfb: encoded, service: null } };
}

describe("mergeRepeatedPhases", () => {
  it("adds counts and takes percentiles from the merged histograms, never averaging them", () => {
    const fast = Array.from({ length: 99 }, () => 1000);
    const { summary: merged } = mergeRepeatedPhases([
      repetition([...fast, 1000], 100),
      repetition([...fast, 500_000], 300),
    ]);
    expect(merged.requests).toBe(200);
    expect(merged.bytes).toBe(20_000);
    expect(merged.durationMs).toBe(400);
    expect(merged.errorsByCode).toEqual({ SlowDown: 2 });
    expect(merged.opsPerSec).toBe(500);
    // One slow request in 200: it is the maximum, and above p99 (the 198th value) it shows.
    expect(merged.latencyMs.max).toBeCloseTo(500, 0);
    expect(merged.latencyMs.p99).toBeCloseTo(1, 1);
    expect(merged.latencyMs.p999).toBeCloseTo(500, 0);
  });
});
