import type { LatencyStats, PhaseSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { coordinatedOmissionNote, openLoopFlags, openLoopRateHz } from "./coordinated-omission.ts";

function latency(p99: number, max: number): LatencyStats {
  return {
    min: 1,
    p25: 2,
    p50: 3,
    p75: 4,
    p90: 5,
    p99,
    p999: p99,
    p9999: max,
    max,
    mean: 3,
    stdev: 1,
  };
}

function phase(change: Partial<PhaseSummary>): PhaseSummary {
  return {
    op: "GET",
    loop: "closed",
    requests: 1000,
    errors: 0,
    errorsByCode: {},
    bytes: 0,
    durationMs: 1000,
    throughputMBps: 0,
    opsPerSec: 1000,
    steady: null,
    latencyMs: latency(10, 20),
    clientQueueMs: null,
    serviceMs: null,
    ttfbMs: null,
    transferMs: null,
    missedStarts: 0,
    tail: null,
    completionGapMs: 20,
    ...change,
  };
}

describe("coordinatedOmissionNote", () => {
  it.each<[string, Partial<PhaseSummary>, "note" | "strong" | null]>([
    ["an open loop has none", { loop: "open" }, null],
    ["a steady closed loop: a plain note", {}, "note"],
    // Frozen 1 s while p99 stayed at 30 ms (the figures).
    [
      "no completion for 1 s against p99 31 ms",
      { latencyMs: latency(30.7, 40), completionGapMs: 990 },
      "strong",
    ],
    ["a gap under 10 × p99", { latencyMs: latency(30, 40), completionGapMs: 290 }, "note"],
    ["a gap under the 100 ms floor", { latencyMs: latency(1, 2), completionGapMs: 90 }, "note"],
    ["max ≫ p99", { latencyMs: latency(10, 100) }, "strong"],
    ["max just under 10 × p99", { latencyMs: latency(10, 99) }, "note"],
    ["a run before the gap was kept", { completionGapMs: undefined }, "note"],
    ["no successful request", { latencyMs: null }, "note"],
  ])("%s", (_name, change, strength) => {
    expect(coordinatedOmissionNote(phase(change))?.strength ?? null).toBe(strength);
  });

  it("offers the open-loop equivalent just under the steady throughput", () => {
    const steady = {
      fromMs: 0,
      toMs: 1000,
      durationMs: 1000,
      requests: 1234,
      bytes: 0,
      throughputMBps: 0,
      opsPerSec: 1234,
    };
    const note = coordinatedOmissionNote(phase({ steady }));
    expect(note?.openLoopRateHz).toBe(1100);
    expect(note && openLoopFlags(note)).toBe("--rate 1100/s");
  });
});

describe("openLoopRateHz", () => {
  it.each([
    [1000, 900],
    [1234, 1100],
    [111.8, 100],
    [55, 49],
    [5, 4],
    [1.2, 1],
    [0.5, 1],
    [0, 1],
  ])("%d ops/s → %d/s", (opsPerSec, rate) => {
    expect(openLoopRateHz(opsPerSec)).toBe(rate);
  });
});
