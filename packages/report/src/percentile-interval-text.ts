import {
  PERCENTILE_LEVELS,
  type LatencyStats,
  type Operation,
  type PercentileInterval,
  type PercentileName,
} from "@taillab/api";
import { requestsBeyond, restsOnFew } from "@taillab/core";
import { formatMs } from "./report-format.ts";
import { REPORT_MESSAGES } from "./report-messages.ts";
import { operationWord } from "./s3bench-run-text.ts";

/** `p99.9`: a percentile as people write it. */
export function percentileLabel(name: PercentileName): string {
  return `p${PERCENTILE_LEVELS[name]}`;
}

/**
 * `[11.902, 13.004]`, ms: a percentile's confidence interval. An end the requests do not bound
 * is written as what is known of it: at least 0 below, unbounded (∞) above.
 */
export function formatIntervalMs(interval: PercentileInterval): string {
  const lo = interval.lo === null ? "0" : formatMs(interval.lo);
  const hi = interval.hi === null ? "∞" : formatMs(interval.hi);
  return `[${lo}, ${hi}]`;
}

/** The percentiles of `stats` that rest on too few slower requests, slowest level last. */
export function fewBeyondLevels(
  stats: LatencyStats | null,
): { name: PercentileName; count: number; beyond: number }[] {
  const count = stats?.intervals?.count;
  if (count === undefined) return [];
  return (Object.keys(PERCENTILE_LEVELS) as PercentileName[])
    .filter((name) => restsOnFew(count, PERCENTILE_LEVELS[name]))
    .map((name) => ({ name, count, beyond: requestsBeyond(count, PERCENTILE_LEVELS[name]) }));
}

/**
 * The lines a CLI summary adds under a phase's percentiles: each one's interval, the
 * histogram's precision, and the figures that rest on few requests.
 */
export function percentileIntervalLines(op: Operation, stats: LatencyStats | null): string[] {
  const intervals = stats?.intervals;
  if (!intervals) return [];
  const names = (Object.keys(PERCENTILE_LEVELS) as PercentileName[]).filter(
    (name) => name !== "p25" && name !== "p75",
  );
  const shown = names
    .map((name) => `${percentileLabel(name)} ${formatIntervalMs(intervals.byLevel[name])}`)
    .join("  ");
  const few = fewBeyondLevels(stats).map(({ name, count, beyond }) =>
    REPORT_MESSAGES.en.restsOn(operationWord(op), percentileLabel(name), count, beyond),
  );
  return [
    `${Math.round(intervals.confidence * 100)} % intervals, ms (order statistics; histogram ±${intervals.precisionPct} %): ${shown}`,
    ...(few.length > 0 ? [`Few requests beyond: ${few.join("; ")}`] : []),
  ];
}
