import type { TailBreakdown, TailBucketSums, TailShare } from "@taillab/api";
import type { LatencyParts } from "./logical-request.ts";

/**
 * "Where the tail went": the parts of the slowest requests' latency, without keeping every
 * request. Requests are counted in logarithmic latency buckets, 16 per doubling (each about 4 %
 * wide), each bucket holding the sums of its requests' parts; the slowest 1 % are then the
 * buckets from the one holding p99 up. Sums of whole microseconds merge exactly, so a breakdown
 * merged from worker deltas equals one built from the records.
 */
const BUCKETS_PER_DOUBLING = 16;

/** count, latencyUs, clientQueueUs, hedgeWaitUs, serverUs, transferUs: sums per bucket. */
export type { TailBucketSums };

/** Bucket index → sums; sparse (a phase touches a few dozen buckets). */
export type TailBuckets = Map<number, TailBucketSums>;

export function tailBucketOf(latencyUs: number): number {
  return Math.floor(Math.log2(Math.max(1, latencyUs)) * BUCKETS_PER_DOUBLING);
}

/** The lowest latency (µs) a bucket holds. */
export function tailBucketFloorUs(bucket: number): number {
  return 2 ** (bucket / BUCKETS_PER_DOUBLING);
}

export function addToTail(buckets: TailBuckets, parts: LatencyParts): void {
  const bucket = tailBucketOf(parts.latencyUs);
  let sums = buckets.get(bucket);
  if (!sums) {
    sums = [0, 0, 0, 0, 0, 0];
    buckets.set(bucket, sums);
  }
  sums[0] += 1;
  sums[1] += parts.latencyUs;
  sums[2] += parts.clientQueueUs;
  sums[3] += parts.hedgeWaitUs;
  sums[4] += parts.serverUs;
  sums[5] += parts.transferUs;
}

export function mergeTail(target: TailBuckets, entries: Iterable<[number, TailBucketSums]>): void {
  for (const [bucket, sums] of entries) {
    const existing = target.get(bucket);
    if (!existing) {
      target.set(bucket, [...sums]);
      continue;
    }
    for (let index = 0; index < existing.length; index += 1) {
      existing[index] = (existing[index] as number) + (sums[index] as number);
    }
  }
}

/** The requests from `thresholdUs`'s bucket up. */
function tailShare(buckets: TailBuckets, thresholdUs: number): TailShare {
  const from = tailBucketOf(thresholdUs);
  const total: TailBucketSums = [0, 0, 0, 0, 0, 0];
  for (const [bucket, sums] of buckets) {
    if (bucket < from) continue;
    for (let index = 0; index < total.length; index += 1) {
      total[index] = (total[index] as number) + (sums[index] as number);
    }
  }
  const [count, latencyUs, clientQueueUs, hedgeWaitUs, serverUs, transferUs] = total;
  const meanMs = (sumUs: number) => (count > 0 ? Math.round(sumUs / count) / 1000 : 0);
  return {
    fromMs: Math.round(tailBucketFloorUs(from)) / 1000,
    requests: count,
    meanMs: meanMs(latencyUs),
    clientQueueMs: meanMs(clientQueueUs),
    hedgeWaitMs: meanMs(hedgeWaitUs),
    serverMs: meanMs(serverUs),
    transferMs: meanMs(transferUs),
  };
}

/** The breakdown of the slowest 1 % and 0.1 %, given the phase's p99 and p99.9 (µs). */
export function tailBreakdown(buckets: TailBuckets, p99Us: number, p999Us: number): TailBreakdown {
  return { p99: tailShare(buckets, p99Us), p999: tailShare(buckets, p999Us) };
}
