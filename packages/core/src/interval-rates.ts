import type { IntervalStats } from "@taillab/api";

/** One second of a phase as rates: what its throughput and errors over time draw. */
export interface IntervalRates {
  /** Seconds since the run started, at the middle of the interval (intervalMiddleS). */
  atS: number;
  /** Successful requests answered in the interval, per second of it. */
  opsPerSec: number;
  /** Requests that failed in the interval, per second of it. */
  errorsPerSec: number;
}

/**
 * Where an interval sits on a time axis: seconds since the run started, at its middle. Every
 * chart over time places a second there, so one time range zooms them alike.
 */
export function intervalMiddleS(interval: IntervalStats): number {
  return (interval.startMs + interval.lengthMs / 2) / 1000;
}

/**
 * An interval's answers and failures per second of its length. A second is counted by when its
 * requests ended, as the percentiles over time are; an interval of no length has no rate (0).
 */
export function intervalRates(interval: IntervalStats): IntervalRates {
  const seconds = interval.lengthMs / 1000;
  return {
    atS: intervalMiddleS(interval),
    opsPerSec: seconds > 0 ? interval.requests / seconds : 0,
    errorsPerSec: seconds > 0 ? interval.errors / seconds : 0,
  };
}
