import type { IntervalStats, LiveTuning } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { knobSpans } from "./knob-history.ts";

const TUNING: LiveTuning = {
  serviceMs: 5,
  stallProbability: 0.01,
  stallMs: 500,
  replicas: 2,
  mode: "normal",
  hedgeDelay: { kind: "fixed", delayMs: 20 },
  hedgeBudgetPercent: 10,
} as LiveTuning;

const second = (startMs: number, requests: number): IntervalStats => ({
  startMs,
  lengthMs: 1000,
  requests,
  errors: 0,
  p50Ms: 5,
  p99Ms: 30,
  p999Ms: 500,
  maxMs: 510,
});

describe("knob spans", () => {
  it("lists every setting of a session, 2 → 3 → 1 replicas, with the requests under each", () => {
    const spans = knobSpans(
      [
        { atMs: 0, tuning: TUNING, changed: [] },
        {
          atMs: 2500,
          tuning: { ...TUNING, replicas: 3, mode: "hedged" },
          changed: ["replicas", "mode"],
        },
        { atMs: 4000, tuning: { ...TUNING, replicas: 1 }, changed: ["replicas", "mode"] },
      ],
      [0, 1000, 2000, 3000, 4000, 5000].map((startMs) => second(startMs, 400)),
    );
    expect(
      spans.map(({ fromMs, toMs, tuning, requests }) => [
        fromMs,
        toMs,
        tuning.replicas,
        tuning.mode,
        requests,
      ]),
    ).toEqual([
      [0, 2500, 2, "normal", 1200],
      [2500, 4000, 3, "hedged", 400],
      [4000, null, 1, "normal", 800],
    ]);
  });

  it("counts seconds before the first marker in the first span", () => {
    const spans = knobSpans(
      [{ atMs: 800, tuning: TUNING, changed: [] }],
      [second(0, 10), second(1000, 20)],
    );
    expect(spans.map((span) => span.requests)).toEqual([30]);
  });
});
