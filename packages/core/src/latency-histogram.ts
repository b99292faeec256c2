import hdr from "hdr-histogram-js";

export type LatencyHistogram = hdr.Histogram;

/** Microseconds from 1 µs, 3 significant digits (a relative error of at most 0.1 %). */
const LOWEST_US = 1;
const SIGNIFICANT_DIGITS = 3;
/** How far a value read back can be from the one recorded, as a % of it. */
export const HISTOGRAM_PRECISION_PCT = 100 / 10 ** SIGNIFICANT_DIGITS;
/**
 * The smallest range HDR allows: a histogram grows (autoResize) to the largest value it records.
 * Sized for an hour up front, each took 94 KB, and a run keeps three per operation and second:
 * a 10-minute run held 150 MB of mostly empty counts. Bucket bounds depend only on the lowest
 * value and the digits, so the figures are the same.
 */
const INITIAL_HIGHEST_US = 2 * LOWEST_US;

export function createLatencyHistogram(): LatencyHistogram {
  return hdr.build({
    lowestDiscernibleValue: LOWEST_US,
    highestTrackableValue: INITIAL_HIGHEST_US,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    autoResize: true,
  });
}

/** Records a latency; values below 1 µs (a clock tick of 0) count as 1 µs. */
export function recordLatencyUs(histogram: LatencyHistogram, latencyUs: number): void {
  histogram.recordValue(Math.max(LOWEST_US, Math.round(latencyUs)));
}

/**
 * Compact form for sending a histogram between threads or writing it to disk. Deflate's fastest
 * level: workers encode every 100 ms on the thread that handles responses, and level 1 takes a
 * third of the default's time (~0.09 ms) for a few per cent more bytes.
 */
const FAST_COMPRESSION_LEVEL = 1;

export function encodeHistogram(histogram: LatencyHistogram): string {
  return hdr.encodeIntoCompressedBase64(histogram, FAST_COMPRESSION_LEVEL);
}

export function decodeHistogram(encoded: string): LatencyHistogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false);
}

/** Adds an encoded histogram into `target`: merging histograms, never averaging percentiles. */
export function mergeEncodedHistogram(target: LatencyHistogram, encoded: string): void {
  const other = decodeHistogram(encoded);
  target.add(other);
  other.destroy();
}
