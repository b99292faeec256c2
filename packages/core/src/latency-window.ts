import { formatByteSize } from "@taillab/api";
import { exactPercentile } from "./exact-percentile.ts";

/** The most recent latencies of one request class, for choosing a hedge delay from them. */
export interface LatencyWindow {
  /** Adds a latency, evicting the oldest once the window is full. */
  add(valueMs: number): void;
  /** How many latencies the window holds (at most its size). */
  readonly count: number;
  /**
   * The nearest-rank percentile of the latencies held, the same definition as an HDR histogram
   * query and `exactPercentile`. Throws when the window is empty.
   */
  percentile(level: number): number;
}

/**
 * A ring buffer of the last `size` latencies plus the same values kept sorted. A hedging client
 * adds one value and reads one percentile per request, thousands of times a second; moving one
 * value in and one out of a sorted array of ~1 000 numbers is a short memmove, cheaper than
 * re-sorting on every read and never stale, unlike re-sorting every N adds.
 */
export function createLatencyWindow(size = 1000): LatencyWindow {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`latency window size must be a whole number of at least 1, got ${size}`);
  }
  const ring: number[] = [];
  let oldestIndex = 0;
  const sorted: number[] = [];

  return {
    add(valueMs) {
      if (!Number.isFinite(valueMs) || valueMs < 0) {
        throw new RangeError(`latency must be a finite number of ms ≥ 0, got ${valueMs}`);
      }
      if (ring.length < size) {
        ring.push(valueMs);
      } else {
        const evicted = ring[oldestIndex] as number;
        ring[oldestIndex] = valueMs;
        oldestIndex = (oldestIndex + 1) % size;
        sorted.splice(lowerBound(sorted, evicted), 1);
      }
      sorted.splice(lowerBound(sorted, valueMs), 0, valueMs);
    },
    get count() {
      return ring.length;
    },
    percentile(level) {
      if (sorted.length === 0) throw new Error("latency window is empty: add a latency first");
      return exactPercentile(sorted, level);
    },
  };
}

/** The first index whose value is ≥ `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The class a request's latency is compared within: its operation and its size rounded down to a
 * power of 4 (`GET:4KiB-16KiB` holds sizes from 4 KiB up to, not including, 16 KiB). A 4 MiB
 * GET takes far longer than a 4 KiB one, so sharing one hedge delay would hedge every large
 * request or none of the small ones; powers of 4 keep the classes few enough to fill quickly.
 * Sizes below 4 bytes (including empty objects) share `0B-4B`.
 */
export function requestClass(op: string, sizeBytes: number): string {
  if (!Number.isFinite(sizeBytes) || sizeBytes < 0) {
    throw new RangeError(`object size must be a finite number of bytes ≥ 0, got ${sizeBytes}`);
  }
  let lowerBytes = 4;
  if (sizeBytes < lowerBytes) return `${op}:0B-4B`;
  while (lowerBytes * 4 <= sizeBytes) lowerBytes *= 4;
  return `${op}:${formatByteSize(lowerBytes)}-${formatByteSize(lowerBytes * 4)}`;
}
