/**
 * What a latency profile does to one request, drawn from a seeded random stream (pure). The
 * draws happen in a fixed order per request, so the same seed and the same request order give
 * the same delays.
 */
import type { LatencyProfile, ServiceTime } from "@taillab/api";
import { MAX_PROFILE_DURATION_MS } from "@taillab/api";
import type { Random } from "@taillab/core";
import type { InjectedFault } from "./request-interceptor.ts";

export const SLOW_DOWN_FAULT: InjectedFault = {
  status: 503,
  code: "SlowDown",
  message: "Please reduce your request rate.",
};
export const RESET_FAULT: InjectedFault = { resetConnection: true };

/**
 * Fail at once, or be served: `serviceMs` is the sampled service time (which a noisy neighbour
 * stretches), `stallMs` the pause added on top of it (0 when the request does not stall).
 */
export type RequestPlan =
  | { kind: "fault"; fault: InjectedFault }
  | { kind: "serve"; serviceMs: number; stallMs: number; corrupt: boolean };

/**
 * One service time in milliseconds. Capped at MAX_PROFILE_DURATION_MS: an exponential or wide
 * lognormal can draw minutes once in a million, which would only hold a slot past any client's
 * timeout.
 */
export function sampleServiceTimeMs(serviceTime: ServiceTime, random: Random): number {
  switch (serviceTime.kind) {
    case "none":
      return 0;
    case "fixed":
      return serviceTime.ms;
    case "exponential":
      return Math.min(random.exponential(serviceTime.meanMs), MAX_PROFILE_DURATION_MS);
    case "lognormal":
      return Math.min(
        random.lognormal(serviceTime.medianMs, serviceTime.sigma),
        MAX_PROFILE_DURATION_MS,
      );
  }
}

/**
 * Errors first (a throttled or broken server answers before doing the work), then the service
 * time, then whether the request stalls.
 */
export function planRequest(profile: LatencyProfile, random: Random): RequestPlan {
  const { errors, stalls } = profile;
  if (errors !== undefined && errors.slowDownRate + errors.resetRate > 0) {
    const draw = random.next();
    if (draw < errors.slowDownRate) return { kind: "fault", fault: SLOW_DOWN_FAULT };
    if (draw < errors.slowDownRate + errors.resetRate) return { kind: "fault", fault: RESET_FAULT };
  }
  const serviceMs = sampleServiceTimeMs(profile.serviceTime, random);
  const stallMs =
    stalls !== undefined && stalls.probability > 0 && random.chance(stalls.probability)
      ? stalls.durationMs
      : 0;
  // Drawn last and only when asked for, so profiles without it replay the same delays as before.
  const corrupt = (errors?.corruptRate ?? 0) > 0 && random.chance(errors?.corruptRate ?? 0);
  return { kind: "serve", serviceMs, stallMs, corrupt };
}

/**
 * How many times slower `replica` is `elapsedMs` after the testbed started: `factor` during the
 * last `forMs` of every `everyMs` (so a run starts on a healthy replica), otherwise 1.
 */
export function noisyNeighbourFactor(
  profile: LatencyProfile,
  replica: number,
  elapsedMs: number,
): number {
  const noisy = profile.noisyNeighbour;
  if (noisy === undefined || noisy.replica !== replica || noisy.forMs === 0) return 1;
  const phaseMs = elapsedMs % noisy.everyMs;
  return phaseMs >= noisy.everyMs - noisy.forMs ? noisy.factor : 1;
}

/**
 * True when the profile never delays nor fails a request, so the testbed needs no interceptor.
 * A queue or a noisy neighbour alone changes nothing: slots are held only for the injected
 * delay, and the neighbour multiplies it.
 */
export function isPassThrough(profile: LatencyProfile): boolean {
  const { serviceTime, stalls, errors } = profile;
  const noServiceTime =
    serviceTime.kind === "none" || (serviceTime.kind === "fixed" && serviceTime.ms === 0);
  const noStalls = stalls === undefined || stalls.probability === 0 || stalls.durationMs === 0;
  const noErrors =
    errors === undefined || errors.slowDownRate + errors.resetRate + errors.corruptRate === 0;
  return noServiceTime && noStalls && noErrors;
}
