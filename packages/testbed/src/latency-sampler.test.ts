import { BUILTIN_PROFILES, type LatencyProfile } from "@taillab/api";
import { createRandom } from "@taillab/core";
import { describe, expect, it } from "vitest";
import {
  isPassThrough,
  noisyNeighbourFactor,
  planRequest,
  RESET_FAULT,
  sampleServiceTimeMs,
  SLOW_DOWN_FAULT,
  type RequestPlan,
} from "./latency-sampler.ts";

const SAMPLES = 50_000;

function samples(draw: () => number, count = SAMPLES): number[] {
  return Array.from({ length: count }, draw).sort((a, b) => a - b);
}
const median = (sorted: readonly number[]) => sorted[Math.floor(sorted.length / 2)] as number;
const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

function plans(profile: LatencyProfile, seed: number, count: number): RequestPlan[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => planRequest(profile, random));
}

describe("sampleServiceTimeMs", () => {
  it("draws nothing for none and the value for fixed", () => {
    const random = createRandom(1);
    expect(sampleServiceTimeMs({ kind: "none" }, random)).toBe(0);
    expect(sampleServiceTimeMs({ kind: "fixed", ms: 7.5 }, random)).toBe(7.5);
  });

  it("gives a lognormal its median and its spread", () => {
    const random = createRandom(42);
    const sorted = samples(() =>
      sampleServiceTimeMs({ kind: "lognormal", medianMs: 5, sigma: 0.25 }, random),
    );
    expect(median(sorted)).toBeGreaterThan(4.9);
    expect(median(sorted)).toBeLessThan(5.1);
    // p99 of a lognormal is median · e^(2.326 σ) ≈ 8.94 ms.
    const p99 = sorted[Math.floor(sorted.length * 0.99)] as number;
    expect(p99).toBeGreaterThan(8.6);
    expect(p99).toBeLessThan(9.3);
  });

  it("gives an exponential its mean, and its median of mean · ln 2", () => {
    const random = createRandom(7);
    const sorted = samples(() => sampleServiceTimeMs({ kind: "exponential", meanMs: 10 }, random));
    expect(mean(sorted)).toBeGreaterThan(9.8);
    expect(mean(sorted)).toBeLessThan(10.2);
    expect(median(sorted)).toBeGreaterThan(6.7);
    expect(median(sorted)).toBeLessThan(7.2);
  });

  it("caps a freak draw at 60 s", () => {
    const random = createRandom(3);
    const sorted = samples(() =>
      sampleServiceTimeMs({ kind: "exponential", meanMs: 60_000 }, random),
    );
    expect(sorted.at(-1)).toBe(60_000);
  });
});

describe("planRequest", () => {
  it("stalls about 1 % of the stalls profile's requests, for 1 s", () => {
    const planned = plans(BUILTIN_PROFILES.stalls, 11, 100_000);
    const stalled = planned.filter((plan) => plan.kind === "serve" && plan.stallMs > 0);
    expect(stalled.length).toBeGreaterThan(900);
    expect(stalled.length).toBeLessThan(1100);
    expect(stalled.every((plan) => plan.kind === "serve" && plan.stallMs === 1000)).toBe(true);
  });

  it("fails at the configured rates, before sampling any service time", () => {
    const planned = plans(
      {
        serviceTime: { kind: "fixed", ms: 5 },
        errors: { slowDownRate: 0.1, resetRate: 0.05, corruptRate: 0 },
      },
      5,
      100_000,
    );
    const count = (fault: unknown) =>
      planned.filter((plan) => plan.kind === "fault" && plan.fault === fault).length;
    expect(count(SLOW_DOWN_FAULT)).toBeGreaterThan(9_600);
    expect(count(SLOW_DOWN_FAULT)).toBeLessThan(10_400);
    expect(count(RESET_FAULT)).toBeGreaterThan(4_700);
    expect(count(RESET_FAULT)).toBeLessThan(5_300);
    expect(SLOW_DOWN_FAULT).toEqual({
      status: 503,
      code: "SlowDown",
      message: "Please reduce your request rate.",
    });
  });

  it("corrupts served requests at the configured rate", () => {
    const planned = plans(
      {
        serviceTime: { kind: "none" },
        errors: { slowDownRate: 0, resetRate: 0, corruptRate: 0.25 },
      },
      3,
      20_000,
    );
    const corrupt = planned.filter((plan) => plan.kind === "serve" && plan.corrupt).length;
    expect(corrupt).toBeGreaterThan(4_700);
    expect(corrupt).toBeLessThan(5_300);
  });

  it("replays the same plans from the same seed, and others from another", () => {
    const profile: LatencyProfile = {
      serviceTime: { kind: "lognormal", medianMs: 5, sigma: 0.5 },
      stalls: { probability: 0.2, durationMs: 100 },
      errors: { slowDownRate: 0.1, resetRate: 0, corruptRate: 0 },
    };
    expect(plans(profile, 99, 500)).toEqual(plans(profile, 99, 500));
    expect(plans(profile, 99, 500)).not.toEqual(plans(profile, 100, 500));
  });
});

describe("noisyNeighbourFactor", () => {
  const profile: LatencyProfile = {
    serviceTime: { kind: "fixed", ms: 5 },
    noisyNeighbour: { replica: 1, everyMs: 400, forMs: 100, factor: 10 },
  };
  it.each([
    [1, 0, 1],
    [1, 299.9, 1],
    [1, 300, 10],
    [1, 399.9, 10],
    [1, 400, 1],
    [1, 750, 10],
    [0, 350, 1],
    [2, 350, 1],
  ])("replica %d at %d ms is %d× slower", (replica, elapsedMs, factor) => {
    expect(noisyNeighbourFactor(profile, replica, elapsedMs)).toBe(factor);
  });

  it("is 1 without a noisy neighbour", () => {
    expect(noisyNeighbourFactor(BUILTIN_PROFILES.steady, 0, 9_000)).toBe(1);
  });
});

describe("isPassThrough", () => {
  it.each([
    [BUILTIN_PROFILES.fast, true],
    [{ serviceTime: { kind: "fixed", ms: 0 }, queue: { slots: 1 } }, true],
    [BUILTIN_PROFILES.steady, false],
    [{ serviceTime: { kind: "none" }, stalls: { probability: 0.1, durationMs: 10 } }, false],
    [{ serviceTime: { kind: "none" }, errors: { slowDownRate: 0, resetRate: 0.1 } }, false],
  ] as [LatencyProfile, boolean][])("%j → %s", (profile, expected) => {
    expect(isPassThrough(profile)).toBe(expected);
  });
});
