import { createRandom } from "./random.ts";

export type ArrivalProcess = "fixed" | "poisson";

export interface ArrivalScheduleSpec {
  arrivals: ArrivalProcess;
  rateHz: number;
  seed: number;
}

export interface ArrivalSchedule {
  /**
   * The intended start of the next request (0, 1, 2…) in µs from the start of the phase. Open
   * loop measures latency from this instant, not from when the request was actually sent, so a
   * stalled sender cannot hide the queueing it caused (coordinated omission).
   */
  nextOffsetUs(): number;
}

const US_PER_SECOND = 1e6;

/**
 * Open-loop arrivals at `rateHz`. Request 0 is due at offset 0 in both processes, so a phase
 * starts with a request; after that, fixed arrivals are evenly spaced 1e6 / rateHz µs apart and
 * Poisson arrivals are separated by independent exponential gaps with that mean. Offsets are
 * fractional µs; rounding is left to the scheduler that turns them into timers.
 */
export function createArrivalSchedule(spec: ArrivalScheduleSpec): ArrivalSchedule {
  if (!Number.isFinite(spec.rateHz) || spec.rateHz <= 0) {
    throw new RangeError(
      `arrival rate must be a positive number of requests per second, got ${spec.rateHz}`,
    );
  }
  const meanGapUs = US_PER_SECOND / spec.rateHz;
  if (spec.arrivals === "fixed") {
    let index = 0;
    // Multiplying rather than summing keeps request 1 000 000 exactly on the grid.
    return { nextOffsetUs: () => index++ * meanGapUs };
  }
  const random = createRandom(spec.seed);
  let offsetUs = 0;
  let started = false;
  return {
    nextOffsetUs: () => {
      if (started) offsetUs += random.exponential(meanGapUs);
      started = true;
      return offsetUs;
    },
  };
}
