import type { IntervalStats } from "@taillab/api";

/** One second of a phase as rates: what its throughput and errors over time draw. */
export interface IntervalRates {
  /** Seconds since the run started, at the middle of the interval (intervalMiddleS). */
  atS: number;
  /** Successful requests answered in the interval, per second of it. */
  opsPerSec: number;
  /** Requests that failed in the interval, per second of it. */
  errorsPerSec: number;
  /** MiB its successful requests moved, per second of it; null where not recorded. */
  mibPerSec: number | null;
  /** Its failed requests per second of it, by error code; null where not recorded. */
  errorsPerSecByCode: Record<string, number> | null;
}

const BYTES_PER_MIB = 1024 * 1024;

/**
 * Where an interval sits on a time axis: seconds since the run started, at its middle. Every
 * chart over time places a second there, so one time range zooms them alike.
 */
export function intervalMiddleS(interval: IntervalStats): number {
  return (interval.startMs + interval.lengthMs / 2) / 1000;
}

/**
 * An interval's answers, failures and bytes per second of its length. A second is counted by when
 * its requests ended, as the percentiles over time are; an interval of no length has no rate (0).
 * Bytes and codes of a run stored before they were kept are not known: null, never 0.
 */
export function intervalRates(interval: IntervalStats): IntervalRates {
  const seconds = interval.lengthMs / 1000;
  const perSecond = (count: number) => (seconds > 0 ? count / seconds : 0);
  const { bytes, errorsByCode } = interval;
  return {
    atS: intervalMiddleS(interval),
    opsPerSec: perSecond(interval.requests),
    errorsPerSec: perSecond(interval.errors),
    mibPerSec: bytes === undefined ? null : perSecond(bytes / BYTES_PER_MIB),
    errorsPerSecByCode:
      errorsByCode === undefined
        ? null
        : Object.fromEntries(
            Object.entries(errorsByCode).map(([code, count]) => [code, perSecond(count)]),
          ),
  };
}

/**
 * The error codes of a phase's seconds, most failures first (ties by code): the order a chart
 * stacks them in and a CSV writes their columns in.
 */
export function errorCodesOf(intervals: readonly IntervalStats[]): string[] {
  const totals = new Map<string, number>();
  for (const { errorsByCode = {} } of intervals) {
    for (const [code, count] of Object.entries(errorsByCode)) {
      totals.set(code, (totals.get(code) ?? 0) + count);
    }
  }
  return [...totals]
    .sort(([codeA, a], [codeB, b]) => b - a || (codeA < codeB ? -1 : codeA > codeB ? 1 : 0))
    .map(([code]) => code);
}

/** Whether any of a phase's seconds kept its bytes and codes (a run stored before did not). */
export function intervalCountsRecorded(intervals: readonly IntervalStats[]): boolean {
  return intervals.some((interval) => interval.bytes !== undefined);
}

/** One error code's layer of errors per second, stacked on the codes with more failures. */
export interface StackedCodeRates {
  code: string;
  points: { atS: number; low: number; high: number }[];
}

/**
 * A phase's errors per second by code as stacked layers (errorCodesOf's order, the most failures
 * at the bottom): each second's top is its errors per second. Null where codes were not recorded.
 */
export function errorRatesStackedByCode(
  intervals: readonly IntervalStats[],
): StackedCodeRates[] | null {
  if (!intervalCountsRecorded(intervals)) return null;
  const rates = intervals.map(intervalRates);
  const below = rates.map(() => 0);
  return errorCodesOf(intervals).map((code) => ({
    code,
    points: rates.map((rate, index) => {
      const low = below[index] as number;
      const high = low + (rate.errorsPerSecByCode?.[code] ?? 0);
      below[index] = high;
      return { atS: rate.atS, low, high };
    }),
  }));
}
