import { DISTRIBUTED_SCHEMA_VERSION, type Operation, type ShardProgress } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { createTally, encodeTally, recordDuration, tallyStatsMs } from "./latency-tally.ts";
import { mergeShardProgress } from "./shard-progress.ts";

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
