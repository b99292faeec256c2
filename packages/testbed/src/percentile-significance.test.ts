import {
  BUILTIN_PROFILES,
  type LatencyProfile,
  type LatencyStats,
  type PercentileName,
} from "@taillab/api";
import {
  createRandom,
  createTally,
  percentileDifferenceSignificant,
  recordDuration,
  tallyStatsMs,
} from "@taillab/core";
import { describe, expect, it } from "vitest";
import { planRequest } from "./latency-sampler.ts";

/**
 * Seeded trials of the testbed's own latency profiles: what a run against it measures, without
 * the machine's noise, so chance alone decides whether two runs differ.
 */
const TRIALS = 40;
const REQUESTS = 4000;

function runStats(profile: LatencyProfile, seed: number): LatencyStats {
  const random = createRandom(seed);
  const tally = createTally();
  for (let request = 0; request < REQUESTS; request++) {
    const plan = planRequest(profile, random);
    if (plan.kind === "serve") recordDuration(tally, (plan.serviceMs + plan.stallMs) * 1000);
  }
  return tallyStatsMs(tally) as LatencyStats;
}

/** Each trial's run measured once (memoised): the percentiles are judged on the same runs. */
function trialRuns(profile: LatencyProfile, firstSeed: number): (trial: number) => LatencyStats {
  const runs = new Map<number, LatencyStats>();
  return (trial) => {
    const known = runs.get(trial) ?? runStats(profile, firstSeed + trial);
    runs.set(trial, known);
    return known;
  };
}

function significantShare(
  baseline: (trial: number) => LatencyStats,
  other: (trial: number) => LatencyStats,
  percentile: PercentileName,
): number {
  let significant = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const verdict = percentileDifferenceSignificant(
      baseline(trial).intervals?.byLevel[percentile],
      other(trial).intervals?.byLevel[percentile],
    );
    if (verdict) significant += 1;
  }
  return significant / TRIALS;
}

describe("percentile differences on the testbed's profiles", () => {
  const stalled = trialRuns(BUILTIN_PROFILES.stalls, 1000);
  const stalledAgain = trialRuns(BUILTIN_PROFILES.stalls, 2000);
  const stallsCut = trialRuns(BUILTIN_PROFILES.steady, 3000);

  it.each(["p50", "p99", "p999"] as const)(
    "two runs of one configuration are not significant at %s in the large majority of trials",
    (percentile) => {
      expect(significantShare(stalled, stalledAgain, percentile)).toBeLessThanOrEqual(0.1);
    },
  );

  it("a real cut of the stalls (1 % of requests paused 1 s) is significant at p99.9 in every trial", () => {
    expect(significantShare(stalled, stallsCut, "p999")).toBe(1);
  });
});
