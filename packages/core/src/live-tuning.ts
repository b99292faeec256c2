import {
  BUILTIN_PROFILES,
  LIVE_KNOBS,
  type HedgeOptions,
  type LatencyProfile,
  type LiveKnob,
  type LiveTuning,
  type RunSpec,
  type ServiceTime,
} from "@taillab/api";

/**
 * The live tail lab's knobs against a spec: where they start, and what the testbed's profile and
 * the engine's hedge options become when they move. Pure: the backend applies the results.
 */

/** A service time of "none" takes this shape once its knob is moved above 0. */
const DEFAULT_SIGMA = 0.25;

/** A run whose knobs can move while it runs: an open loop until stopped on the embedded testbed. */
export function isLiveSession(spec: Pick<RunSpec, "openLoop" | "endpoints">): boolean {
  return spec.openLoop?.untilStopped === true && spec.endpoints === undefined;
}

export function testbedProfileOf(spec: Pick<RunSpec, "testbed">): LatencyProfile {
  const { profile } = spec.testbed;
  return typeof profile === "string" ? BUILTIN_PROFILES[profile] : profile;
}

/** The typical service time of a distribution: its median, mean or fixed time (ms). */
function typicalServiceMs(serviceTime: ServiceTime): number {
  switch (serviceTime.kind) {
    case "none":
      return 0;
    case "fixed":
      return serviceTime.ms;
    case "exponential":
      return serviceTime.meanMs;
    case "lognormal":
      return serviceTime.medianMs;
  }
}

/** The knobs where a spec puts them. */
export function tuningOf(spec: Pick<RunSpec, "testbed" | "mode" | "hedge">): LiveTuning {
  const profile = testbedProfileOf(spec);
  return {
    serviceMs: typicalServiceMs(profile.serviceTime),
    stallProbability: profile.stalls?.probability ?? 0,
    stallMs: profile.stalls?.durationMs ?? 0,
    replicas: spec.testbed.replicas,
    mode: spec.mode,
    hedgeDelay: spec.hedge.delay,
    hedgeBudgetPercent: spec.hedge.budgetPercent,
  };
}

/**
 * The profile with the knobs' service time and stalls; its shape (distribution, spread, queue,
 * noisy neighbour, errors) stays. A distribution scaled to 0 ms serves at once.
 */
export function profileWithTuning(profile: LatencyProfile, tuning: LiveTuning): LatencyProfile {
  const ms = tuning.serviceMs;
  const serviceTime = ((): ServiceTime => {
    if (ms === 0) return { kind: "none" };
    switch (profile.serviceTime.kind) {
      case "none":
        return { kind: "lognormal", medianMs: ms, sigma: DEFAULT_SIGMA };
      case "fixed":
        return { kind: "fixed", ms };
      case "exponential":
        return { kind: "exponential", meanMs: ms };
      case "lognormal":
        return { ...profile.serviceTime, medianMs: ms };
    }
  })();
  const tuned: LatencyProfile = { ...profile, serviceTime };
  delete tuned.stalls;
  if (tuning.stallProbability > 0 && tuning.stallMs > 0) {
    tuned.stalls = { probability: tuning.stallProbability, durationMs: tuning.stallMs };
  }
  return tuned;
}

export function hedgeWithTuning(hedge: HedgeOptions, tuning: LiveTuning): HedgeOptions {
  return { ...hedge, delay: tuning.hedgeDelay, budgetPercent: tuning.hedgeBudgetPercent };
}

/** The knobs whose values differ, in the order LIVE_KNOBS lists them. */
export function changedKnobs(before: LiveTuning, after: LiveTuning): LiveKnob[] {
  return LIVE_KNOBS.filter((knob) => JSON.stringify(before[knob]) !== JSON.stringify(after[knob]));
}
