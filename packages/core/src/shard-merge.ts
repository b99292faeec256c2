import type {
  ClientHealth,
  DistributedSummary,
  Operation,
  PhaseAccountDelta,
  PhaseSummary,
  RunPointParams,
  ShardBreakdown,
  ShardResult,
} from "@taillab/api";
import { clocksApart } from "./clock-limit.ts";
import { mergeClientHealth } from "./client-health.ts";
import { PhaseAccount, shiftedAccount, type PhaseAccountShape } from "./phase-account.ts";
import { expandSweep } from "./sweep.ts";

/**
 * The exact merge of a distributed run's shards (pure): per point and operation, their accounts
 * merged into one (histograms added, never percentiles averaged), on one run clock that starts at
 * the common T0; the shards' own figures kept beside, and the ones that are missing named with
 * what the run's folder says about them. Every client of every shard is a lane of the merged
 * account, so its steady throughput is over the window where all shards' clients were busy.
 */

/** What a run's folder in the bucket says about its shards besides their results. */
export interface ShardFolderState {
  /** Shards the run was started with. */
  shards: number;
  results: readonly ShardResult[];
  /** Ready time (epoch ms) of each shard that reached the barrier. */
  readyAtMs: ReadonlyMap<number, number>;
  /** Shards that gave up at the barrier (abort/I). */
  aborted: ReadonlySet<number>;
  /** Last progress (epoch ms) of each shard that wrote some. */
  progressAtMs: ReadonlyMap<number, number>;
}

export interface MergedPhase {
  shape: PhaseAccountShape;
  summary: PhaseSummary;
  /** On the merged run clock. */
  account: PhaseAccountDelta;
}

export interface MergedShards {
  /** The merged run clock's origin, epoch ms: the common T0. */
  runStartEpochMs: number;
  points: { params: RunPointParams; finished: boolean; phases: MergedPhase[] }[];
  /** complete: every shard ran every point to its end; serverLost: a shard's server went silent. */
  status: "complete" | "stopped" | "serverLost";
  distributed: DistributedSummary;
}

/**
 * Why these results cannot be merged into one run: shards of another run, count, spec or
 * TailLab version than the first. One line each, naming the shard.
 */
export function shardMergeProblems(results: readonly ShardResult[]): string[] {
  const [first, ...others] = results;
  if (!first) return [];
  const problems: string[] = [];
  const seen = new Set<number>([first.index]);
  for (const result of others) {
    const shard = `shard ${result.index}`;
    if (seen.has(result.index)) problems.push(`${shard}: two results for the same index`);
    seen.add(result.index);
    if (result.runId !== first.runId) {
      problems.push(`${shard}: belongs to run ${result.runId}, not ${first.runId}`);
    }
    if (result.shards !== first.shards) {
      problems.push(`${shard}: one of ${result.shards} shards, not ${first.shards}`);
    }
    if (result.environment.taillabVersion !== first.environment.taillabVersion) {
      problems.push(
        `${shard}: measured by TailLab ${result.environment.taillabVersion}, shard ${first.index} by ${first.environment.taillabVersion}`,
      );
    }
    const field = firstDifference(first.spec, result.spec);
    if (field !== null) {
      problems.push(`${shard}: its spec differs from shard ${first.index}'s (${field})`);
    }
    if (result.t0Ms !== null && first.t0Ms !== null && result.t0Ms !== first.t0Ms) {
      problems.push(
        `${shard}: started from another barrier (T0 ${result.t0Ms}, not ${first.t0Ms})`,
      );
    }
  }
  return problems;
}

/** The first top-level field whose value differs, or null when the specs are the same. */
function firstDifference(a: object, b: object): string | null {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const differs = (key: string) =>
    JSON.stringify((a as Record<string, unknown>)[key]) !==
    JSON.stringify((b as Record<string, unknown>)[key]);
  return keys.find(differs) ?? null;
}

/** Merges shard results that shardMergeProblems accepts; throws on others. */
export function mergeShards(state: ShardFolderState): MergedShards {
  const problems = shardMergeProblems(state.results);
  if (problems.length > 0) throw new Error(problems.join("; "));
  const results = [...state.results].sort((a, b) => a.index - b.index);
  const [first] = results;
  if (!first) throw new Error("no shard left a result: there is nothing to merge");
  const t0Ms = results.find((result) => result.t0Ms !== null)?.t0Ms ?? null;
  const runStartEpochMs = t0Ms ?? Math.min(...results.map((result) => result.runStartEpochMs));
  const wholePoints = expandSweep(first.spec);
  const points = wholePoints.flatMap((params, pointIndex) => {
    const shardPoints = results.flatMap((result) => {
      const point = result.points[pointIndex];
      return point ? [{ result, point }] : [];
    });
    if (shardPoints.length === 0) return [];
    const everyShardFinished =
      shardPoints.length === state.shards && shardPoints.every(({ point }) => point.finished);
    return [
      {
        params,
        finished: everyShardFinished,
        phases: operationsOf(shardPoints.map(({ point }) => point.phases)).map((op) =>
          mergePhase(
            shardPoints.flatMap(({ result, point }) =>
              point.phases
                .filter((phase) => phase.op === op)
                .map((phase) => ({
                  phase,
                  shard: result.index,
                  offsetUs: (result.runStartEpochMs - runStartEpochMs) * 1000,
                })),
            ),
          ),
        ),
      },
    ];
  });
  const distributed = distributedSummary(state, results, t0Ms);
  // Clocks that far apart placed each shard's window where its own clock said: no window where
  // every shard was busy is known, so none is reported.
  const placedPoints = distributed.clocksApart
    ? points.map((point) => ({
        ...point,
        phases: point.phases.map((phase) => ({
          ...phase,
          summary: { ...phase.summary, steady: null },
        })),
      }))
    : points;
  const complete =
    results.length === state.shards &&
    results.every((result) => result.status === "complete") &&
    points.length === wholePoints.length &&
    points.every((point) => point.finished);
  return {
    runStartEpochMs,
    points: placedPoints,
    status: complete
      ? "complete"
      : results.some((result) => result.status === "serverLost")
        ? "serverLost"
        : "stopped",
    distributed,
  };
}

/** Operations in the order the first shard that ran them lists them. */
function operationsOf(phaseLists: readonly { op: Operation }[][]): Operation[] {
  return [...new Set(phaseLists.flatMap((phases) => phases.map((phase) => phase.op)))];
}

interface ShardPhase {
  phase: ShardResult["points"][number]["phases"][number];
  shard: number;
  offsetUs: number;
}

function mergePhase(parts: readonly ShardPhase[]): MergedPhase {
  const [first] = parts;
  if (!first) throw new Error("a merged phase needs a shard's phase");
  const { op, loop, hedgeBudgetPct } = first.phase;
  const account = new PhaseAccount({ op, loop, hedgeBudgetPct });
  try {
    for (const { phase, offsetUs } of parts) account.merge(shiftedAccount(phase.account, offsetUs));
    const client = mergedClientHealth(parts);
    return {
      shape: account.shape,
      summary: { ...account.summary(), ...(client ? { client } : {}) },
      account: account.snapshot(),
    };
  } finally {
    account.destroy();
  }
}

/**
 * The shards' client health as one (core's mergeClientHealth), their seconds on the merged run
 * clock, naming the shards whose client was the bottleneck: one shard's client falling behind
 * makes the merged tail partly its own, however well the others kept up.
 */
function mergedClientHealth(parts: readonly ShardPhase[]): ClientHealth | undefined {
  const healths = parts.map(({ phase, offsetUs }) => {
    const client = phase.summary.client;
    if (!client) return undefined;
    const seconds = client.seconds.map((second) => ({
      ...second,
      startMs: second.startMs + offsetUs / 1000,
    }));
    return { ...client, seconds };
  });
  const merged = mergeClientHealth(healths);
  if (!merged) return undefined;
  const verdicts = parts.flatMap(({ phase, shard }) =>
    phase.summary.client ? [{ shard, verdict: phase.summary.client.verdict }] : [],
  );
  // Each shard is judged on its own machine: its verdict stands though the figures merge.
  const boundShards = verdicts.filter(({ verdict }) => !verdict.keptUp).map(({ shard }) => shard);
  const verdict = {
    keptUp: boundShards.length === 0,
    reasons: [...new Set(verdicts.flatMap(({ verdict }) => verdict.reasons))],
  };
  return { ...merged, verdict, boundShards };
}

function distributedSummary(
  state: ShardFolderState,
  results: readonly ShardResult[],
  t0Ms: number | null,
): DistributedSummary {
  const byIndex = new Map(results.map((result) => [result.index, result]));
  const starts = results.flatMap((result) =>
    result.startedAtMs === null ? [] : [result.startedAtMs],
  );
  const clocks = results.flatMap((result) => (result.clock ? [result.clock] : []));
  const offsets = clocks.map((clock) => clock.offsetMs);
  // The two clocks furthest apart are each known to within their bounds.
  const bounds = clocks.map((clock) => clock.boundMs).sort((a, b) => b - a);
  const spread = (values: number[]) =>
    values.length === 0 ? null : round3(Math.max(...values) - Math.min(...values));
  // Only the clocks of shards that started place a measured window.
  const apart = clocksApart(
    results.flatMap((result) =>
      result.startedAtMs === null ? [] : [{ index: result.index, clock: result.clock }],
    ),
  );
  const shards = Array.from({ length: state.shards }, (_, index): ShardBreakdown => {
    const result = byIndex.get(index);
    if (!result) {
      return {
        index,
        status: "missing",
        problem: missingShardProblem(index, state),
        startOffsetMs: null,
        clock: null,
        points: [],
      };
    }
    return {
      index,
      status: result.status,
      problem: result.error ?? shardProblem(result),
      startOffsetMs:
        result.startedAtMs === null || t0Ms === null ? null : round3(result.startedAtMs - t0Ms),
      clock: result.clock,
      points: result.points.map((point) => ({
        params: point.params,
        phases: point.phases.map((phase) => phase.summary),
      })),
    };
  });
  return {
    shardCount: state.shards,
    t0: t0Ms === null ? null : new Date(t0Ms).toISOString(),
    // Each start is read on its own shard's clock: with clocks this far apart, their spread is not.
    startSpreadMs: apart ? null : spread(starts),
    clockSkewMs: spread(offsets),
    clockSkewBoundMs: clocks.length === 0 ? null : round3((bounds[0] ?? 0) + (bounds[1] ?? 0)),
    ...(apart
      ? {
          clocksApart: {
            shards: apart.shards,
            apartMs: round3(apart.apartMs),
            boundMs: round3(apart.boundMs),
          },
        }
      : {}),
    merged: results.map((result) => result.index),
    shards,
  };
}

/** What is wrong with a shard that ended without an error, or null. */
function shardProblem(result: ShardResult): string | null {
  if (result.status === "stopped") {
    return "stopped before its end (Ctrl-C, SIGTERM as when its pod is deleted, or the run's stop): its figures cover what it measured";
  }
  const [loss] = result.serverLosses ?? [];
  if (result.status !== "serverLost" || !loss) return null;
  const since = new Date(result.runStartEpochMs + loss.sinceMs).toISOString();
  const gone = result.serverGone;
  const notRun = gone?.notRun.map((phase) => `${phase.phase} (point ${phase.pointIndex + 1})`);
  return gone
    ? `its server stopped answering at ${since} and did not answer again (${gone.probeError}): it ended there${notRun?.length ? `; not run: ${notRun.join(", ")}` : ""}`
    : `its server stopped answering at ${since}: its ${loss.phase} phase ended early`;
}

/** Why a shard left no result, from what it did leave in the run's folder. */
export function missingShardProblem(index: number, state: ShardFolderState): string {
  if (state.aborted.has(index)) {
    return "gave up at the start barrier (abort marker): the run did not start for it";
  }
  const progressAt = state.progressAtMs.get(index);
  if (progressAt !== undefined) {
    return `started but left no result: killed or cut off mid-run (last progress ${new Date(progressAt).toISOString()}); its figures are not in the merge`;
  }
  const gaveUp = [...state.aborted].sort((a, b) => a - b);
  if (gaveUp.length > 0) {
    return `did not start: shard ${gaveUp.join(", ")} gave up at the start barrier, which aborts the run for every shard`;
  }
  if (state.readyAtMs.has(index)) {
    return "was ready at the barrier but left no progress or result (stopped before its first second)";
  }
  return "never reached the start barrier (no ready marker): not scheduled, not started, or failed before";
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
