import type { LivePercentiles, RunProgress, ShardProgress } from "@taillab/api";
import { createTally, destroyTally, livePercentilesOf, mergeTally } from "./latency-tally.ts";

/**
 * A distributed run's live figures from its shards' progress objects (pure): the phase most
 * shards are in, its counts and rates added up, and its percentiles from the shards' latency
 * histograms merged (never averaged).
 */
export interface MergedShardProgress {
  progress: RunProgress;
  percentiles: LivePercentiles | null;
  /** Shards whose figures these are (the others are in another phase). */
  shards: number[];
}

export function mergeShardProgress(
  progresses: readonly ShardProgress[],
  runId: string,
): MergedShardProgress | null {
  const groups = new Map<string, ShardProgress[]>();
  for (const shard of progresses) {
    const key = `${shard.progress.pointIndex}/${shard.progress.op}`;
    groups.set(key, [...(groups.get(key) ?? []), shard]);
  }
  const group = [...groups.values()].reduce<ShardProgress[]>(
    (largest, candidate) => (candidate.length > largest.length ? candidate : largest),
    [],
  );
  const [first] = group;
  if (!first) return null;
  const sum = (figure: (progress: RunProgress) => number) =>
    group.reduce((total, shard) => total + figure(shard.progress), 0);
  const tally = createTally();
  try {
    for (const shard of group) if (shard.latency) mergeTally(tally, shard.latency);
    const percentiles = livePercentilesOf(tally);
    return {
      progress: {
        runId,
        pointIndex: first.progress.pointIndex,
        pointCount: first.progress.pointCount,
        params: {
          clients: sum((progress) => progress.params.clients),
          samples: sum((progress) => progress.params.samples),
          objectSizeBytes: first.progress.params.objectSizeBytes,
        },
        op: first.progress.op,
        done: sum((progress) => progress.done),
        total: sum((progress) => progress.total),
        errors: sum((progress) => progress.errors),
        opsPerSec: sum((progress) => progress.opsPerSec),
        p50Ms: percentiles?.p50Ms ?? null,
        p99Ms: percentiles?.p99Ms ?? null,
        elapsedMs: Math.max(...group.map((shard) => shard.progress.elapsedMs)),
      },
      percentiles,
      shards: group.map((shard) => shard.index).sort((a, b) => a - b),
    };
  } finally {
    destroyTally(tally);
  }
}
