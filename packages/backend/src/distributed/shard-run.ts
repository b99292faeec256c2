/**
 * One shard of a distributed run (`taillab run --shard I/N --start-at T --results s3://…/RUN/`):
 * its share of the spec, started with the others through the barrier in the run's folder (and
 * each later measured phase with them through a phase gate), its
 * progress written there about every second, and what it measured left there when it ends:
 * its result (figures and whole accounts), optionally its records, then its done marker.
 */
import {
  DISTRIBUTED_SCHEMA_VERSION,
  type RunCleanup,
  type RunEnvironment,
  type RunNotice,
  type RunSummary,
  type ShardDone,
  type ShardPhase,
  type ShardProgress,
  type ShardResult,
  type ShardStatus,
} from "@taillab/api";
import {
  expandSweep,
  shardPointParams,
  type PhaseAccountDelta,
  type RunFolderUri,
  type ShardRole,
} from "@taillab/core";
import type { SecretSources } from "../credentials.ts";
import { noticeText } from "../run-notices.ts";
import { captureEnvironment } from "../run-environment.ts";
import {
  runBenchmark,
  validateRunSpec,
  type LiveFigures,
  type RunHooks,
} from "../run-benchmark.ts";
import { alignedRunStartMs } from "./barrier-markers.ts";
import type { MarkerStore } from "./bucket-markers.ts";
import type { ClockOffset } from "./server-clock.ts";
import { openRunFolder } from "./run-folder-client.ts";
import { doneKey, progressKey, recordsKey, resultKey } from "./run-folder-layout.ts";
import { createShardRecordsWriter, type ShardRecordsWriter } from "./shard-records.ts";
import { passPhaseGate } from "./phase-gate.ts";
import {
  defaultPollMs,
  passStartBarrier,
  StartBarrierError,
  type BarrierPassed,
} from "./start-barrier.ts";

export interface ShardRunOptions {
  spec: unknown;
  secrets: SecretSources;
  role: ShardRole;
  folder: RunFolderUri;
  /** The earliest start every shard was given, epoch ms. */
  startAtMs: number;
  /** A shard not ready this long after startAt is missing, and the run is aborted. */
  barrierTimeoutMs: number;
  /** Upload every request's record too (shards/I/records.ndjson.gz). */
  uploadRecords: boolean;
  /**
   * Test hook: this shard reads its clock this far ahead of the machine's (behind when
   * negative), as a machine whose clock is off would, for the barrier and its look at the storage
   * server's clock. The measuring keeps the machine's clock: a shard this far off does not start.
   */
  clockSkewMs?: number;
  hooks?: Pick<RunHooks, "signal" | "onProgress"> & {
    onNotice?: (message: string, notice?: RunNotice) => void;
  };
}

export interface ShardOutcome {
  /** What was uploaded. */
  result: ShardResult;
  /** The shard's own summary (its share of each point). */
  summary: RunSummary;
  /** Where its keys are (`<prefix>/<run>-<shard>/`), and what its cleanup did, if one ran. */
  keyPrefix: string;
  cleanup: RunCleanup | null;
}

/**
 * How often a shard rewrites its progress object: every second, and less often above 100
 * shards, so the storage under test takes at most about 100 such writes a second from a run.
 */
export function progressIntervalMs(shards: number): number {
  return 1_000 * Math.max(1, Math.ceil(shards / 100));
}

/**
 * How many of the running phase's newest seconds a progress object carries: as many as ten of
 * its rewrites take, so a watcher that reads it less often than it is written misses no second
 * (and a long run's progress object stays small).
 */
export function recentSecondsOf(shards: number): number {
  return (10 * progressIntervalMs(shards)) / 1000;
}

/**
 * Runs the shard and leaves its result in the run's folder as soon as its measuring ends, before
 * the cleanup of what it wrote: a merge need not wait for that. A shard that fails after it started
 * still leaves what it measured (status failed, the error) before the error is thrown on; one
 * that does not pass the barrier leaves only the barrier's abort marker (StartBarrierError).
 */
export async function runShard(options: ShardRunOptions): Promise<ShardOutcome> {
  const spec = validateRunSpec(options.spec);
  const { role, folder, startAtMs, hooks = {} } = options;
  const skewMs = options.clockSkewMs ?? 0;
  const now = () => Date.now() + skewMs;
  // Not stopped by the signal: a stopped shard still leaves what it measured.
  const runFolder = await openRunFolder(spec, options.secrets, folder, { now });
  const { markers } = runFolder;
  const runStartEpochMs = alignedRunStartMs(startAtMs, now());
  /** A shard not ready by then is missing (on its own clock). */
  const barrierDeadlineMs = startAtMs + options.barrierTimeoutMs;
  const phases = new Map<number, ShardPhase[]>();
  // The result carries each phase's seconds in its account, as the merge reads them.
  const seconds = new Map<string, PhaseAccountDelta["intervals"]>();
  let barrier: BarrierPassed | null = null;
  /** Its clock against the server's: the barrier's check, passed or refused. */
  let clock: ClockOffset | null = null;
  /** The shards the next phase gate waits for. */
  let atLastGate: number[] = [];
  const progress = progressWriter(markers, role, hooks.onNotice, () =>
    barrier ? { runStartEpochMs, t0Ms: barrier.t0Ms } : null,
  );
  let startedAtMs: number | null = null;
  let environment: RunEnvironment | null = null;
  let records: ShardRecordsWriter | null = null;
  let keyPrefix = "";
  let cleanup: RunCleanup | null = null;
  let result: ShardResult | null = null;
  const finish = async (status: ShardStatus, summary: RunSummary | null, error: string | null) => {
    await progress.settled();
    const uploaded = records ? await records.finish() : null;
    if (uploaded) await markers.put(recordsKey(role.index), uploaded.bytes);
    const written: ShardResult = {
      schemaVersion: DISTRIBUTED_SCHEMA_VERSION,
      kind: "taillab-shard-result",
      runId: folder.runId,
      index: role.index,
      shards: role.count,
      spec,
      environment: environment ?? captureEnvironment(null),
      endpointUrls: spec.endpoints?.map((endpoint) => endpoint.url) ?? [],
      // A shard that never started has no run clock: a clock that was off would put it anywhere.
      runStartEpochMs: barrier ? runStartEpochMs : startAtMs,
      startAtMs,
      t0Ms: barrier?.t0Ms ?? null,
      startedAtMs,
      clock,
      status,
      error,
      points: expandSweep(spec).flatMap((params, pointIndex) => {
        const measured = phases.get(pointIndex);
        if (!measured) return [];
        const finished = summary?.points[pointIndex]?.finished ?? false;
        return [{ params: shardPointParams(params, role), finished, phases: measured }];
      }),
      recordCount: uploaded?.count ?? null,
      ...(summary?.serverLosses ? { serverLosses: summary.serverLosses } : {}),
      ...(summary?.serverGone ? { serverGone: summary.serverGone } : {}),
    };
    await markers.put(resultKey(role.index), JSON.stringify(written));
    const done: ShardDone = { index: role.index, status, at: new Date().toISOString() };
    await markers.put(doneKey(role.index), JSON.stringify(done));
    result = written;
  };

  try {
    const summary = await runBenchmark(
      spec,
      options.secrets,
      {
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        onNotice: (message, notice) => hooks.onNotice?.(message, notice),
        onRunStart: async (start) => {
          keyPrefix = start.keyPrefix;
          environment = captureEnvironment(start.server);
          if (options.uploadRecords) {
            records = createShardRecordsWriter({ index: role.index, runStartEpochMs });
          }
        },
        onProgress: (update, live) => {
          progress.update(update, live);
          hooks.onProgress?.(update, live);
        },
        onRecords: (pointIndex, batch) => records?.add(pointIndex, batch),
        onIntervals: (pointIndex, op, intervals) => {
          const key = `${pointIndex}/${op}`;
          const kept = seconds.get(key);
          if (kept) kept.push(...intervals);
          else seconds.set(key, [...intervals]);
        },
        onMeasured: (summary) => finish(summary.status, summary, null),
        onCleanup: async (done) => {
          cleanup = done;
        },
        onPhaseDone: (pointIndex, { shape, summary: phaseSummary, account }) => {
          const list = phases.get(pointIndex) ?? [];
          const intervals = seconds.get(`${pointIndex}/${shape.op}`) ?? [];
          list.push({ ...shape, summary: phaseSummary, account: { ...account, intervals } });
          phases.set(pointIndex, list);
        },
      },
      {
        role,
        runId: folder.runId,
        runStartEpochMs,
        // The run's first measured phase starts at the barrier; each later one at a phase gate.
        startGate: async (phaseIndex) => {
          const stoppable = hooks.signal ? { signal: hooks.signal } : {};
          if (barrier === null) {
            barrier = await passStartBarrier({
              markers,
              index: role.index,
              shards: role.count,
              startAtMs,
              deadlineMs: barrierDeadlineMs,
              now,
              ...(spec.endpoints?.[0] ? { endpoint: spec.endpoints[0].url } : {}),
              ...stoppable,
            }).catch((error: unknown) => {
              if (error instanceof StartBarrierError) clock = error.clock;
              throw error;
            });
            clock = barrier.clock;
            atLastGate = barrier.ready.map((marker) => marker.index);
            return barrier.t0Ms;
          }
          const gate = await passPhaseGate({
            markers,
            index: role.index,
            shards: role.count,
            phaseIndex,
            expected: atLastGate,
            waitMs: options.barrierTimeoutMs,
            pollMs: defaultPollMs(role.count),
            ...stoppable,
            ...(hooks.onNotice ? { onNotice: hooks.onNotice } : {}),
          });
          atLastGate = gate.arrived;
          return gate.startMs;
        },
        onStarted: (epochMs) => {
          startedAtMs ??= epochMs;
        },
        recentSeconds: recentSecondsOf(role.count),
        preflightRetry: { now, giveUpAtMs: () => barrierDeadlineMs },
      },
    );
    if (result === null) throw new Error("the shard's measuring never ended");
    return { result, summary, keyPrefix, cleanup };
  } catch (error) {
    // Bad input and a barrier that did not pass leave nothing but the barrier's own markers; a
    // result once written stays (what failed came after the measuring). A shard whose clock
    // was refused leaves a result too, which says why: the merge and the library name it.
    const refusedClock = error instanceof StartBarrierError && error.reason === "clock";
    if (
      result === null &&
      (refusedClock || (barrier !== null && !(error instanceof StartBarrierError)))
    ) {
      await finish("failed", null, (error as Error).message).catch(() => {});
    }
    throw error;
  } finally {
    await runFolder.close();
  }
}

/**
 * Rewrites progress/I.json at most once a progressIntervalMs, one write at a time, and a phase's
 * last figures always (after the write under way): a finished shard's progress then holds every
 * request it measured. A failed write is said once and the run goes on (progress is for
 * watching, not for results). `clock` is the shard's run clock and the common start, once the
 * barrier passed: its seconds are given with them.
 */
function progressWriter(
  markers: MarkerStore,
  role: ShardRole,
  onNotice: ((message: string, notice: RunNotice) => void) | undefined,
  clock: () => { runStartEpochMs: number; t0Ms: number } | null,
) {
  const intervalMs = progressIntervalMs(role.count);
  const seconds = recentSecondsOf(role.count);
  let lastMs = 0;
  let writing: Promise<void> = Promise.resolve();
  let queued = 0;
  let warned = false;
  /** The last phase that ended, and the one before it: what `previous` carries. */
  let ended: NonNullable<ShardProgress["previous"]> | null = null;
  let endedBefore: NonNullable<ShardProgress["previous"]> | null = null;
  return {
    update(update: ShardProgress["progress"], live: LiveFigures) {
      const nowMs = Date.now();
      if (!live.ended && (queued > 0 || nowMs - lastMs < intervalMs)) return;
      lastMs = nowMs;
      const start = clock();
      const recent = start ? live.encodeRecentIntervals(seconds) : null;
      const latency = live.encodeLatency();
      if (live.ended) [endedBefore, ended] = [ended, { progress: update, latency }];
      const previous = live.ended ? endedBefore : ended;
      const body: ShardProgress = {
        schemaVersion: DISTRIBUTED_SCHEMA_VERSION,
        kind: "taillab-shard-progress",
        index: role.index,
        shards: role.count,
        updatedAtMs: nowMs,
        progress: update,
        latency,
        ended: live.ended,
        ...(previous ? { previous } : {}),
        ...(start && recent ? { recentIntervals: { ...recent, ...start } } : {}),
      };
      queued += 1;
      writing = writing
        .then(() => markers.put(progressKey(role.index), JSON.stringify(body)))
        .catch((error: unknown) => {
          const notice: RunNotice = {
            code: "progressNotWritten",
            params: { shard: role.index, error: (error as Error).message },
          };
          if (!warned) onNotice?.(noticeText(notice), notice);
          warned = true;
        })
        .finally(() => {
          queued -= 1;
        });
    },
    settled: () => writing,
  };
}
