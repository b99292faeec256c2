import { RunSpecSchema, type LiveTuning } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  changedKnobs,
  hedgeWithTuning,
  isLiveSession,
  profileWithTuning,
  tuningOf,
} from "./live-tuning.ts";

const spec = RunSpecSchema.parse({
  clients: 8,
  objectSize: "4KiB",
  openLoop: { rateHz: 100, untilStopped: true },
  workload: { ops: "get:100" },
  mode: "hedged",
  hedge: { delay: "20ms", budgetPercent: "5%" },
  testbed: { replicas: 2, profile: "stalls" },
});

describe("live tuning", () => {
  it("starts the knobs where the spec puts them", () => {
    expect(tuningOf(spec)).toEqual({
      serviceMs: 5,
      stallProbability: 0.01,
      stallMs: 1000,
      replicas: 2,
      mode: "hedged",
      hedgeDelay: { kind: "fixed", delayMs: 20 },
      hedgeBudgetPercent: 5,
    });
  });

  it("is a live session only as an open loop until stopped on the embedded testbed", () => {
    expect(isLiveSession(spec)).toBe(true);
    expect(isLiveSession({ ...spec, openLoop: { ...spec.openLoop!, untilStopped: false } })).toBe(
      false,
    );
    const endpoint = {
      url: "http://127.0.0.1:9000",
      region: "us-east-1",
      addressing: "path" as const,
      credentials: { kind: "anonymous" as const },
      insecure: false,
    };
    expect(isLiveSession({ ...spec, endpoints: [endpoint] })).toBe(false);
  });

  it.each<[LiveTuning["serviceMs"], object, object]>([
    [
      8,
      { kind: "lognormal", medianMs: 5, sigma: 0.25 },
      { kind: "lognormal", medianMs: 8, sigma: 0.25 },
    ],
    [8, { kind: "exponential", meanMs: 4 }, { kind: "exponential", meanMs: 8 }],
    [8, { kind: "fixed", ms: 4 }, { kind: "fixed", ms: 8 }],
    [8, { kind: "none" }, { kind: "lognormal", medianMs: 8, sigma: 0.25 }],
    [0, { kind: "lognormal", medianMs: 5, sigma: 0.25 }, { kind: "none" }],
  ])("moves the service time to %d ms keeping its shape: %j", (serviceMs, from, to) => {
    const profile = { serviceTime: from, queue: { slots: 4 } } as Parameters<
      typeof profileWithTuning
    >[0];
    const tuned = profileWithTuning(profile, { ...tuningOf(spec), serviceMs });
    expect(tuned.serviceTime).toEqual(to);
    expect(tuned.queue).toEqual({ slots: 4 });
  });

  it("sets the stalls, and removes them at 0 %", () => {
    const base = tuningOf(spec);
    const profile = { serviceTime: { kind: "none" as const } };
    expect(
      profileWithTuning(profile, { ...base, stallProbability: 0.2, stallMs: 300 }).stalls,
    ).toEqual({ probability: 0.2, durationMs: 300 });
    expect(profileWithTuning(profile, { ...base, stallProbability: 0 }).stalls).toBeUndefined();
  });

  it("puts the hedge knobs into the options and keeps the rest", () => {
    const hedge = hedgeWithTuning(spec.hedge, {
      ...tuningOf(spec),
      hedgeDelay: { kind: "percentile", percentile: 99 },
      hedgeBudgetPercent: 2,
    });
    expect(hedge).toEqual({
      ...spec.hedge,
      delay: { kind: "percentile", percentile: 99 },
      budgetPercent: 2,
    });
  });

  it("names the knobs that changed, in their order", () => {
    const before = tuningOf(spec);
    expect(changedKnobs(before, before)).toEqual([]);
    expect(
      changedKnobs(before, {
        ...before,
        mode: "tied-server",
        serviceMs: 2,
        hedgeDelay: { kind: "fixed", delayMs: 20 },
      }),
    ).toEqual(["serviceMs", "mode"]);
  });
});
