import type { IntervalStats, LivePercentiles, RunProgress, ShardProgress } from "@taillab/api";
import { createTally, destroyTally, livePercentilesOf, mergeTally } from "./latency-tally.ts";
import { INTERVAL_US, intervalsOnlyDelta, PhaseAccount, shiftedAccount } from "./phase-account.ts";

/**
 * A distributed run's live figures from its shards' progress objects (pure): the phase most
 * shards are in, its counts and rates added up, and its percentiles (so far, and per second)
 * from the shards' latency histograms merged (never averaged).
 */
export interface MergedShardProgress {
  progress: RunProgress;
  percentiles: LivePercentiles | null;
  /** The phase's newest seconds on the merged run clock (from T0), in time order. */
  intervals: IntervalStats[];
  /** Shards whose figures these are (the others are in another phase). */
  shards: number[];
}

/** The figures of one shard's phase that merge: its counts, latency and newest seconds. */
type ShardPhase = Pick<ShardProgress, "index" | "progress" | "latency" | "recentIntervals">;

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
  return mergeShardPhases(group, runId);
}

/**
 * One phase as every shard ended it, merged: from a shard's progress when it shows that phase
 * ended, or from the phase before the one it shows. Null while a shard has not ended it, or has
 * moved two phases on. The last figures of a phase a live view saw part of, when the shards had
 * all moved on before it looked again.
 */
export function mergeEndedPhase(
  progresses: readonly ShardProgress[],
  runId: string,
  phase: Pick<RunProgress, "pointIndex" | "op">,
): MergedShardProgress | null {
  const samePhase = (progress: RunProgress) =>
    progress.pointIndex === phase.pointIndex && progress.op === phase.op;
  const ended: ShardPhase[] = [];
  for (const shard of progresses) {
    if (samePhase(shard.progress) && shard.ended === true) ended.push(shard);
    else if (shard.previous && samePhase(shard.previous.progress)) {
      ended.push({ index: shard.index, ...shard.previous });
    } else return null;
  }
  return mergeShardPhases(ended, runId);
}

function mergeShardPhases(group: readonly ShardPhase[], runId: string): MergedShardProgress | null {
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
      intervals: mergeShardIntervals(group),
      shards: group.map((shard) => shard.index).sort((a, b) => a - b),
    };
  } finally {
    destroyTally(tally);
  }
}

/**
 * The shards' newest seconds of one phase merged second by second on the merged run clock, which
 * reads 0 at T0: each second's histograms added across shards. Only the seconds every shard's
 * progress covers (a shard leaves its older seconds out); none when a shard's progress has no
 * seconds (an older shard: its requests would be missing) or its clock is not a whole number of
 * seconds from T0 (its seconds would straddle the merged ones).
 */
export function mergeShardIntervals(group: readonly ShardPhase[]): IntervalStats[] {
  const [first] = group;
  const parts = group.flatMap((shard) => (shard.recentIntervals ? [shard.recentIntervals] : []));
  if (!first || parts.length < group.length) return [];
  const shifted = parts.map((part) => {
    const offsetMs = part.runStartEpochMs - part.t0Ms;
    return { part, offsetUs: offsetMs * 1000, shift: (offsetMs * 1000) / INTERVAL_US };
  });
  if (shifted.some(({ shift }) => !Number.isInteger(shift))) return [];
  const fromIndex = Math.max(...shifted.map(({ part, shift }) => part.fromIndex + shift));
  // Only its intervals are read: the shape is the phase's, its loop does not matter.
  const account = new PhaseAccount({ op: first.progress.op, loop: "closed", hedgeBudgetPct: null });
  try {
    for (const { part, offsetUs } of shifted) {
      const delta = shiftedAccount(intervalsOnlyDelta(part.intervals), offsetUs);
      account.merge({
        ...delta,
        intervals: delta.intervals.filter((interval) => interval.index >= fromIndex),
      });
    }
    return account.intervalStats();
  } finally {
    account.destroy();
  }
}
