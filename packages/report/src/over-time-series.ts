import type { IntervalStats } from "@taillab/api";
import { intervalMiddleS, intervalPercentileBand, intervalRates } from "@taillab/core";
import { wantsLogAxis } from "./chart-ticks.ts";
import { PERCENTILE_LABELS, type PercentileKey } from "./palette.ts";

/**
 * What the app's charts of a phase's seconds and the HTML report's draw, from the same seconds:
 * each second at its middle (core's intervalMiddleS); a second without a percentile leaves a gap
 * (y null), never a line joined across it, so a second nothing answered in does not read as one
 * that went smoothly.
 */
export interface OverTimePoint {
  x: number;
  y: number | null;
}

/** A second's 95 % interval of one percentile; both ends null (a gap) where it has none. */
export interface OverTimeBandPoint {
  x: number;
  low: number | null;
  high: number | null;
}

/** The percentiles a second's histogram gives; p90 and p99.99 are not kept per second. */
export type OverTimePercentile = Extract<PercentileKey, "p50" | "p99" | "p999">;
export const OVER_TIME_PERCENTILES: readonly OverTimePercentile[] = ["p50", "p99", "p999"];

/** Log axes cannot show 0; a sub-microsecond floor keeps a 0 ms second on the chart. */
export const LOG_FLOOR_MS = 0.001;

export interface PercentileOverTime {
  key: OverTimePercentile;
  label: string;
  points: OverTimePoint[];
  band: OverTimeBandPoint[];
}

/**
 * Whether a phase's percentiles over time are drawn on a log axis at first: its seconds' p50 and
 * p99.9 span decades.
 */
export function overTimeLogScale(intervals: readonly IntervalStats[]): boolean {
  return wantsLogAxis(intervals.flatMap((interval) => [interval.p50Ms ?? 0, interval.p999Ms ?? 0]));
}

/**
 * Each chosen percentile of each second (the engine's interval histograms) and its 95 % interval
 * (core's intervalPercentileBand). A second with no successful answer is a gap. On a log axis a
 * 0 ms value sits on LOG_FLOOR_MS, and an interval open down to 0 is a gap: a log axis has no 0
 * to draw it down to.
 */
export function percentilesOverTime(
  intervals: readonly IntervalStats[],
  options: { logScale: boolean; percentiles?: readonly OverTimePercentile[] },
): PercentileOverTime[] {
  const { logScale, percentiles = OVER_TIME_PERCENTILES } = options;
  return percentiles.map((key) => ({
    key,
    label: PERCENTILE_LABELS[key],
    points: intervals.map((interval) => {
      const valueMs = interval[`${key}Ms`];
      return {
        x: intervalMiddleS(interval),
        y: valueMs === null ? null : logScale ? Math.max(valueMs, LOG_FLOOR_MS) : valueMs,
      };
    }),
    band: intervals.map((interval) => {
      const band = intervalPercentileBand(interval, key);
      const drawn = band && !(logScale && band.lowMs <= 0);
      return {
        x: intervalMiddleS(interval),
        low: drawn ? band.lowMs : null,
        high: drawn ? band.highMs : null,
      };
    }),
  }));
}

/** Which rate of each second a chart draws (core's intervalRates). */
export type RateKind = "throughput" | "errors" | "data";

/**
 * Answers, failures or MiB moved per second of each second that has the rate (core's
 * intervalRates): MiB of seconds stored before seconds kept their bytes are not known, so they
 * have no point, never one at 0 (such a run's seconds have none at all).
 */
export function rateOverTime(
  intervals: readonly IntervalStats[],
  kind: RateKind,
): { x: number; y: number }[] {
  return intervals.map(intervalRates).flatMap((rate) => {
    const y =
      kind === "throughput"
        ? rate.opsPerSec
        : kind === "errors"
          ? rate.errorsPerSec
          : rate.mibPerSec;
    return y === null ? [] : [{ x: rate.atS, y }];
  });
}
