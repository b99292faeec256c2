import { valueRange } from "@taillab/core";

/**
 * Latencies spread over more than this ratio are drawn on a log axis so the body stays visible
 * beside a one-second stall. The same threshold as packages/report's HTML charts, so a chart in
 * the app and in an exported report of the same run look alike.
 */
export const LOG_AXIS_RATIO = 20;

/** Whether positive values span more than `ratio` (zeros and negatives cannot sit on a log axis). */
export function wantsLogAxis(values: readonly number[], ratio = LOG_AXIS_RATIO): boolean {
  const positive = valueRange(values.filter((value) => value > 0 && Number.isFinite(value)));
  return positive !== null && positive.max / positive.min > ratio;
}
