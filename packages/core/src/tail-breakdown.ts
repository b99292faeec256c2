import type { TailBreakdown, TailBucketSums, TailShare } from "@taillab/api";
import type { LatencyParts } from "./logical-request.ts";

/**
 * "Where the tail went": the parts of the slowest requests' latency, without keeping every
 * request. Requests are counted in logarithmic latency buckets, 16 per doubling (each about 4 %
 * wide), each bucket holding the sums of its requests' parts; the slowest 1 % are then taken
 * by rank from the slowest bucket down. Sums of whole microseconds merge exactly, so a breakdown
 * merged from worker deltas equals one built from the records.
 */
const BUCKETS_PER_DOUBLING = 16;

/**
 * count, latencyUs, clientQueueUs, connectUs, hedgeWaitUs, uploadUs, serverUs, transferUs: sums
 * per bucket.
 */
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
    sums = [0, 0, 0, 0, 0, 0, 0, 0];
    buckets.set(bucket, sums);
  }
  sums[0] += 1;
  sums[1] += parts.latencyUs;
  sums[2] += parts.clientQueueUs;
  sums[3] += parts.connectUs;
  sums[4] += parts.hedgeWaitUs;
  sums[5] += parts.uploadUs;
  sums[6] += parts.serverUs;
  sums[7] += parts.transferUs;
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

/**
 * The slowest `count` requests, chosen by rank: whole buckets from the slowest down, and of the
 * bucket where the rank falls the share of its sums it needs (its requests lie within one
 * bucket, ~4 %, of each other). Selecting whole buckets from the percentile's up held 6.5 % of
 * the requests as "the slowest 1 %" when many piled up in one bucket.
 */
function slowest(buckets: TailBuckets, count: number): TailShare {
  const total: TailBucketSums = [0, 0, 0, 0, 0, 0, 0, 0];
  let taken = 0;
  let from = 0;
  for (const bucket of [...buckets.keys()].sort((a, b) => b - a)) {
    if (taken >= count) break;
    const sums = buckets.get(bucket) as TailBucketSums;
    const needed = Math.min(sums[0], count - taken);
    for (let index = 0; index < total.length; index += 1) {
      total[index] = (total[index] as number) + ((sums[index] as number) * needed) / sums[0];
    }
    taken += needed;
    from = bucket;
  }
  const [, latencyUs, clientQueueUs, connectUs, hedgeWaitUs, uploadUs, serverUs, transferUs] =
    total;
  const meanMs = (sumUs: number) => (taken > 0 ? Math.round(sumUs / taken) / 1000 : 0);
  return {
    fromMs: taken > 0 ? Math.round(tailBucketFloorUs(from)) / 1000 : 0,
    requests: taken,
    meanMs: meanMs(latencyUs),
    clientQueueMs: meanMs(clientQueueUs),
    connectMs: meanMs(connectUs),
    hedgeWaitMs: meanMs(hedgeWaitUs),
    uploadMs: meanMs(uploadUs),
    serverMs: meanMs(serverUs),
    transferMs: meanMs(transferUs),
  };
}

/** The breakdown of the slowest 1 % and 0.1 % of the requests (at least one request each). */
export function tailBreakdown(buckets: TailBuckets): TailBreakdown {
  let requests = 0;
  for (const sums of buckets.values()) requests += sums[0];
  return {
    p99: slowest(buckets, Math.ceil(requests / 100)),
    p999: slowest(buckets, Math.ceil(requests / 1000)),
  };
}
