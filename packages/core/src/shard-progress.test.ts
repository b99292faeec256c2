import {
  DISTRIBUTED_SCHEMA_VERSION,
  ShardProgressSchema,
  type Operation,
  type RecentIntervals,
  type ShardProgress,
} from "@taillab/api";
import { describe, expect, it } from "vitest";
import { createTally, encodeTally, recordDuration, tallyStatsMs } from "./latency-tally.ts";
import { mergeEndedPhase, mergeShardIntervals, mergeShardProgress } from "./shard-progress.ts";

function progress(index: number, op: Operation, latenciesUs: number[]): ShardProgress {
  const tally = createTally();
  for (const value of latenciesUs) recordDuration(tally, value);
  return {
    schemaVersion: DISTRIBUTED_SCHEMA_VERSION,
    kind: "taillab-shard-progress",
    index,
    shards: 3,
    updatedAtMs: 1,
    progress: {
      runId: "r1",
      pointIndex: 0,
      pointCount: 1,
      params: { clients: 2, samples: 100, objectSizeBytes: 4096 },
      op,
      done: latenciesUs.length,
      total: 100,
      errors: index,
      opsPerSec: 10 * (index + 1),
      p50Ms: null,
      p99Ms: null,
      elapsedMs: 1000 * (index + 1),
    },
    latency: tally.count > 0 ? encodeTally(tally) : null,
  };
}

describe("a distributed run's live figures", () => {
  it("adds the counts of the shards in the same phase and merges their histograms", () => {
    const a = Array.from({ length: 50 }, (_, i) => 1000 + i * 10);
    const b = Array.from({ length: 30 }, (_, i) => 5000 + i * 1000);
    const merged = mergeShardProgress(
      [progress(0, "PUT", a), progress(1, "PUT", b), progress(2, "GET", [100])],
      "r1",
    );
    expect(merged?.shards).toEqual([0, 1]);
    expect(merged?.progress).toMatchObject({
      op: "PUT",
      done: 80,
      total: 200,
      errors: 1,
      opsPerSec: 30,
      elapsedMs: 2000,
      params: { clients: 4, samples: 200, objectSizeBytes: 4096 },
    });
    const all = createTally();
    for (const value of [...a, ...b]) recordDuration(all, value);
    const stats = tallyStatsMs(all);
    expect(merged?.percentiles).toEqual({
      p50Ms: stats?.p50,
      p90Ms: stats?.p90,
      p99Ms: stats?.p99,
      p999Ms: stats?.p999,
      maxMs: stats?.max,
      count: 80,
    });
    expect(merged?.progress.p99Ms).toBe(stats?.p99);
  });

  it("has nothing to show before a shard wrote progress", () => {
    expect(mergeShardProgress([], "r1")).toBeNull();
  });
});

const T0_MS = 1_700_000_000_000;

/** Latencies (µs) by second of a shard's run clock, encoded as a shard's progress carries them. */
function encodedSeconds(bySecond: Record<number, number[]>): RecentIntervals["intervals"] {
  return Object.entries(bySecond).map(([index, latenciesUs]) => {
    const tally = createTally();
    for (const value of latenciesUs) recordDuration(tally, value);
    return { index: Number(index), latency: encodeTally(tally), failures: null };
  });
}

/** A shard whose run clock started `clockLeadMs` before T0, with its newest seconds. */
function withSeconds(
  shard: ShardProgress,
  clockLeadMs: number,
  fromIndex: number,
  bySecond: Record<number, number[]>,
): ShardProgress {
  return {
    ...shard,
    recentIntervals: {
      runStartEpochMs: T0_MS - clockLeadMs,
      t0Ms: T0_MS,
      fromIndex,
      intervals: encodedSeconds(bySecond),
    },
  };
}

const valuesUs = (from: number, count: number, step: number) =>
  Array.from({ length: count }, (_, i) => from + i * step);

describe("a distributed run's live percentiles over time", () => {
  // Shard 0's clock started 2 s before T0, shard 1's 5 s before: both read whole seconds at T0.
  const a = { 2: valuesUs(1000, 40, 50), 3: valuesUs(2000, 25, 700) };
  const b = { 5: valuesUs(3000, 60, 90), 6: valuesUs(500, 10, 10_000) };
  const shards = [
    withSeconds(progress(0, "GET", []), 2000, 2, a),
    withSeconds(progress(1, "GET", []), 5000, 5, b),
  ];

  it("merges each second of the merged run clock as one histogram of all its values", () => {
    const merged = mergeShardProgress(shards, "r1");
    const expected = [
      [...(a[2] ?? []), ...(b[5] ?? [])],
      [...(a[3] ?? []), ...(b[6] ?? [])],
    ].map((values, second) => {
      const tally = createTally();
      for (const value of values) recordDuration(tally, value);
      const stats = tallyStatsMs(tally);
      return {
        startMs: second * 1000,
        lengthMs: 1000,
        requests: values.length,
        errors: 0,
        p50Ms: stats?.p50,
        p99Ms: stats?.p99,
        p999Ms: stats?.p999,
        maxMs: stats?.max,
        percentileIntervals: {
          p50: stats?.intervals?.byLevel.p50,
          p99: stats?.intervals?.byLevel.p99,
          p999: stats?.intervals?.byLevel.p999,
        },
        backups: 0,
      };
    });
    expect(merged?.intervals).toEqual(expected);
  });

  it("gives only the seconds every shard still carries", () => {
    // Shard 1 left its second 5 (merged second 0) out: that second would be shard 0's alone.
    const later = withSeconds(progress(1, "GET", []), 5000, 6, { 6: b[6] ?? [] });
    const intervals = mergeShardIntervals([shards[0] as ShardProgress, later]);
    expect(intervals.map((interval) => [interval.startMs, interval.requests])).toEqual([
      [1000, 35],
    ]);
  });

  it("shows no seconds beside an older shard's progress, and still its counts", () => {
    const older = JSON.parse(JSON.stringify(progress(1, "GET", [4000, 5000]))) as unknown;
    const parsed = ShardProgressSchema.parse(older);
    const merged = mergeShardProgress([shards[0] as ShardProgress, parsed], "r1");
    expect(merged?.intervals).toEqual([]);
    expect(merged?.progress.done).toBe(2);
    expect(merged?.percentiles?.count).toBe(2);
  });

  it("shows no seconds from a clock that does not read whole seconds at T0", () => {
    const skewed = withSeconds(progress(1, "GET", []), 5500, 5, b);
    expect(mergeShardIntervals([shards[0] as ShardProgress, skewed])).toEqual([]);
  });
});

describe("a phase as every shard ended it", () => {
  const gets = [valuesUs(1000, 40, 10), valuesUs(2000, 30, 10), valuesUs(3000, 20, 10)];
  const endedGet = (index: number) => ({
    ...progress(index, "GET", gets[index] ?? []),
    ended: true,
  });
  /** Shard `index` in its DELETE phase, its GET before it. */
  const onToDelete = (index: number, ended = endedGet(index)): ShardProgress => ({
    ...progress(index, "DELETE", [500]),
    previous: { progress: ended.progress, latency: ended.latency },
  });

  it("takes a shard's figures from its progress, or from the phase before the one it shows", () => {
    const merged = mergeEndedPhase([endedGet(0), onToDelete(1), onToDelete(2)], "r1", {
      pointIndex: 0,
      op: "GET",
    });
    expect(merged?.shards).toEqual([0, 1, 2]);
    expect(merged?.progress).toMatchObject({ op: "GET", done: 90 });
    const all = createTally();
    for (const value of gets.flat()) recordDuration(all, value);
    expect(merged?.percentiles).toMatchObject({ count: 90, p99Ms: tallyStatsMs(all)?.p99 });
    // The most shards are in DELETE: the live figures are its own.
    expect(mergeShardProgress([endedGet(0), onToDelete(1), onToDelete(2)], "r1")?.progress.op).toBe(
      "DELETE",
    );
  });

  it("has none while a shard has not ended the phase, or has moved two phases on", () => {
    const phase = { pointIndex: 0, op: "GET" as const };
    const running = progress(0, "GET", gets[0] ?? []);
    expect(mergeEndedPhase([running, onToDelete(1), onToDelete(2)], "r1", phase)).toBeNull();
    const twoOn = onToDelete(0, { ...progress(0, "PUT", [100]), ended: true });
    expect(mergeEndedPhase([twoOn, onToDelete(1), onToDelete(2)], "r1", phase)).toBeNull();
  });
});
