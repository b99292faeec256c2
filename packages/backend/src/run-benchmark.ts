import {
  OPERATION_ENTRIES,
  RESULTS_SCHEMA_VERSION,
  type Operation,
  type NotRunPhase,
  type PointSummary,
  type RunCleanup,
  type RunNotice,
  type RunPointParams,
  type RequestRecord,
  type RunProgress,
  type RunMarker,
  type RunSpec,
  type RunSummary,
} from "@taillab/api";
import {
  mergeClientHealth,
  expandSweep,
  firstClientOfShard,
  isLiveSession,
  NEVER_HEDGED,
  operationOf,
  parseOperationMix,
  parseRunSpec,
  PhaseAccount,
  repetitionFigures,
  shardKeySpace,
  shardPointParams,
  shardSpecProblems,
  shardWorkload,
  type PhaseAccountDelta,
  type ShardRole,
} from "@taillab/core";
import {
  createControlPlane,
  defaultWorkerCount,
  EndpointError,
  epochNowMs,
  runPoint,
  type ControlPlane,
  type RunTuner,
  type PhaseProgress,
  type PhaseResult,
} from "@taillab/engine";
import { randomBytes } from "node:crypto";
import type { SecretSources } from "./credentials.ts";
import { startEmbeddedTestbed, type EmbeddedTestbed } from "./embedded-testbed.ts";
import { InputError } from "./input-error.ts";
import { startLiveSession, type LiveSession } from "./live-session.ts";
import { machineCapacityProblems } from "./machine-capacity.ts";
import {
  pendingCleanup,
  removeLeftovers,
  type LeftoverPlan,
  type WrittenKeys,
} from "./run-leftovers.ts";
import { WrittenKeyTracker } from "./written-keys.ts";
import {
  isTransientStorageError,
  retryTransient,
  type RetryOptions,
} from "./distributed/storage-retry.ts";
import { noticeText } from "./run-notices.ts";
import { createSilenceWatch, phasesOfPoint, type SilenceWatch } from "./server-silence.ts";
import { resolveTargets, targetNotices, testbedTarget, type RunTarget } from "./run-targets.ts";

export interface RunHooks {
  /** Aborting ends the run within about a second, keeping what was measured. */
  signal?: AbortSignal;
  /** About 10 a second: the phase's progress, and its live percentiles and intervals. */
  onProgress?: (progress: RunProgress, live: LiveFigures) => void;
  onRecords?: (pointIndex: number, records: readonly RequestRecord[]) => void;
  /**
   * A measured phase's seconds as they are over (see runPoint's onIntervals): each repetition's
   * before its point's onPhaseDone, whose account no longer holds them.
   */
  onIntervals?: (
    pointIndex: number,
    op: Operation,
    intervals: PhaseAccountDelta["intervals"],
  ) => void;
  /** A measured phase starts (each repetition's too): live views reset their figures here. */
  onPhaseStart?: (pointIndex: number, op: Operation) => void;
  /** Each operation of a point once it ended (repetitions merged): summary and account. */
  onPhaseDone?: (pointIndex: number, phase: PhaseResult) => void;
  /** A point's summary once it ended (a stopped point too), after its operations' onPhaseDone. */
  onPointDone?: (pointIndex: number, point: PointSummary) => void;
  /**
   * Status lines for a person: the embedded testbed's address, cleanup after a stop. `message`
   * is the English sentence; `notice` the same as data, for a UI's own language.
   */
  onNotice?: (message: string, notice: RunNotice) => void;
  /** After the preflight checks, before the first request: where a results store opens the run. */
  onRunStart?: (start: RunStart) => Promise<void>;
  /** A live session's knobs moved (and its start): the marker on its timeline. */
  onMarker?: (marker: RunMarker) => void;
  /**
   * Once, when the measuring is over (after the last point, or at once after a stop): the
   * summary the run returns, before the cleanup of what it left on the server, which follows.
   * `pendingCleanup` says what that cleanup has yet to look at (its kinds `unchecked`), so a
   * process killed during it leaves a run that says so; null when the run cleans up nothing.
   * Should it throw (the results disk is full), the cleanup still runs, then the run throws that.
   */
  onMeasured?: (summary: RunSummary, pendingCleanup: RunCleanup | null) => Promise<void>;
  /**
   * Once, after onMeasured: what removing the run's objects, open uploads and workload buckets
   * did, and what it could not remove. Not called for a run that keeps its objects and made no
   * buckets.
   */
  onCleanup?: (cleanup: RunCleanup) => Promise<void>;
}

/**
 * What a live view shows beside the counts (the histograms only during the call), and whether
 * the phase has ended (its last figures, with every request it measured).
 */
export type LiveFigures = Pick<
  PhaseProgress,
  | "percentiles"
  | "recentPercentiles"
  | "intervals"
  | "encodeLatency"
  | "encodeRecentIntervals"
  | "ended"
  | "clientSeconds"
>;

/**
 * How far behind its schedule the live lab's open loop may fall before arrivals are shed: a
 * second is long beside the lab's latencies (tens of ms to a stall of a second or two), and short
 * enough that a lecture sees a knob's effect within seconds.
 */
export const LIVE_LAB_BACKLOG_MS = 1000;

/**
 * A shard of a distributed run (distributed/shard-run.ts): its share of every point, keys of its
 * own under the run's, and a start common to all shards.
 */
export interface ShardPart {
  role: ShardRole;
  /** The distributed run's id, the same in every shard. */
  runId: string;
  /** Where this shard's run clock starts (the barrier's alignedRunStartMs). */
  runStartEpochMs: number;
  /**
   * Before every measured phase, with the run's number of the phase: the start barrier for the
   * first, a phase gate after; answers the common start, epoch ms (see runPoint's startGate).
   */
  startGate: (phaseIndex: number) => Promise<number>;
  onStarted: (epochMs: number) => void;
  /** The newest seconds its progress carries (see runPoint's recentSeconds). */
  recentSeconds: number;
  /**
   * Until when a preflight check that got no answer, or a transient one, is tried again: the
   * start barrier's deadline on the shard's clock. Dozens of shards starting at once can keep an
   * endpoint from answering for seconds, and a shard that gave up there would hold every other
   * at the barrier until that deadline anyway.
   */
  preflightRetry: Pick<RetryOptions, "now" | "giveUpAtMs">;
}

export interface RunStart {
  runId: string;
  spec: RunSpec;
  /** When the run clock starts (epoch ms): records and intervals count from it. */
  runStartEpochMs: number;
  /** `<prefix>/<runId>/`: every key of the run starts with it. */
  keyPrefix: string;
  /** The endpoint's Server header, when it sent one. */
  server: string | null;
  /** The live tail lab's knobs, when the run is a live session (isLiveSession); else null. */
  live: LiveSession | null;
}

/** A spec checked against the contract and against what this machine can hold. */
export function validateRunSpec(input: unknown): RunSpec {
  const parsed = parseRunSpec(input);
  if (!parsed.ok) throw new InputError(parsed.errors);
  const beyondMachine = machineCapacityProblems(parsed.spec);
  if (beyondMachine.length > 0) throw new InputError(beyondMachine);
  return parsed.spec;
}

/** Sortable and unique: `20261121-235501-4f3a9c`. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/**
 * Runs every point of a spec against its endpoints (or the embedded testbed): preflight checks
 * of every replica, the phases of each point, and a guarantee that every key this run wrote is
 * deleted when the spec asks for cleanup, even after a stop or failed DELETEs. That cleanup of
 * leftovers comes after the summary is handed over (onMeasured), so a stop is reported as soon
 * as the measuring has ended, however many keys are left to delete.
 */
export async function runBenchmark(
  input: unknown,
  secrets: SecretSources,
  hooks: RunHooks = {},
  shard: ShardPart | null = null,
): Promise<RunSummary> {
  const spec = validateRunSpec(input);
  if (shard) {
    const problems = shardSpecProblems(spec, shard.role.count);
    if (problems.length > 0) throw new InputError(problems);
  }
  for (const notice of [...modeNotices(spec), ...targetNotices(spec)]) notify(hooks, notice);
  const runId = shard?.runId ?? newRunId();
  const startedAt = new Date().toISOString();
  const testbed = spec.endpoints ? null : await startEmbeddedTestbed(spec.bucket, spec.testbed);
  try {
    if (testbed) notify(hooks, testbedNotice(testbed, spec));
    const targets = await resolveTargets(spec, secrets, testbed);
    const controlPlanes = targets.map((target) =>
      createControlPlane({ ...target, maxConnections: 1 }),
    );
    const [controlPlane] = controlPlanes;
    if (!controlPlane) throw InputError.of("endpoints", "expected at least one endpoint");
    try {
      for (const [index, replica] of controlPlanes.entries()) {
        await preflight(spec, replica, targets[index]?.url ?? "", hooks, shard?.preflightRetry);
      }
      const server = await controlPlane.serverHeader();
      const runStartEpochMs = shard?.runStartEpochMs ?? epochNowMs();
      const keyPrefix = keyPrefixOf(spec, runId, shard);
      const live =
        testbed && isLiveSession(spec)
          ? startLiveSession({
              spec,
              testbed,
              targetOf: (url) => testbedTarget(url, testbed, spec),
              runStartEpochMs,
              ...(hooks.onMarker ? { onMarker: hooks.onMarker } : {}),
            })
          : null;
      await hooks.onRunStart?.({ runId, spec, runStartEpochMs, keyPrefix, server, live });
      const silence = createSilenceWatch(controlPlane, runStartEpochMs, {
        keyPrefix,
        say: (notice) => notify(hooks, notice),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
      });
      const { points, leftovers, notRun } = await runPoints(spec, {
        runId,
        runStartEpochMs,
        keyPrefix,
        targets,
        hooks,
        shard,
        tuner: live?.tuner ?? null,
        silence,
      });
      // A silence in the run's last phase is probed before the cleanup: it says whether the
      // cleanup can reach the server at all, and the summary says whether it was gone.
      if (leftovers) await silence.serverAnswers();
      silence.endRun(notRun);
      const { losses, gone } = silence;
      // A point a gone server cut short is not a stop: the summary says where it went.
      const stopped =
        hooks.signal?.aborted === true ||
        (gone === null && points.some((point) => !point.finished));
      const summary: RunSummary = {
        schemaVersion: RESULTS_SCHEMA_VERSION,
        runId,
        startedAt,
        finishedAt: new Date().toISOString(),
        spec,
        endpointUrls: targets.map((target) => target.url),
        server,
        mode: spec.mode,
        loop: spec.openLoop ? "open" : "closed",
        status: stopped ? "stopped" : losses.length > 0 ? "serverLost" : "complete",
        pointCount: expandSweep(spec).length,
        points,
        ...(testbed ? { testbed: testbed.stats() } : {}),
        ...(live ? { markers: [...live.markers] } : {}),
        ...(losses.length > 0 ? { serverLosses: [...losses] } : {}),
        ...(gone ? { serverGone: gone } : {}),
      };
      let hostFailure: { error: unknown } | null = null;
      try {
        await hooks.onMeasured?.(summary, leftovers && pendingCleanup(leftovers));
      } catch (error) {
        hostFailure = { error };
      }
      // The cleanup runs whatever befell the host (a full results disk): the server must not
      // keep the run's objects because a file could not be written here.
      if (leftovers) {
        // A silent server's cleanup sends nothing: the run's last line says what it left.
        const { silentServer } = silence;
        if (leftovers.objects.count > 0 && silentServer === null) {
          notify(hooks, {
            code: "cleanupLeftovers",
            params: { objects: leftovers.objects.count },
          });
        }
        const cleanup = await removeLeftovers(controlPlane, leftovers, silentServer);
        try {
          await hooks.onCleanup?.(cleanup);
        } catch (error) {
          hostFailure ??= { error };
        }
      }
      if (hostFailure) throw hostFailure.error;
      return summary;
    } finally {
      await Promise.all(controlPlanes.map((replica) => replica.close()));
    }
  } finally {
    await testbed?.close();
  }
}

/** Tells the host, in English and as data. */
function notify(hooks: RunHooks, notice: RunNotice): void {
  hooks.onNotice?.(noticeText(notice), notice);
}

function testbedNotice(testbed: EmbeddedTestbed, spec: RunSpec): RunNotice {
  const { profile, seed } = spec.testbed;
  const profileName = typeof profile === "string" ? profile : "custom";
  return { code: "testbedStarted", params: { urls: testbed.urls, profile: profileName, seed } };
}

/**
 * A point's summary: its phases as run once, or, repeated, each operation's repetitions merged
 * into one account (histograms merged, durations added) beside each repetition's own phases and
 * the paper's trimmed means. The host is handed each operation's (merged) result once.
 */
function pointSummary(
  params: RunPointParams,
  repetitions: readonly PhaseResult[][],
  finished: boolean,
  pointIndex: number,
  hooks: RunHooks,
): PointSummary {
  const ops = [...new Set(repetitions.flatMap((phases) => phases.map((p) => p.shape.op)))];
  const merged =
    repetitions.length === 1
      ? (repetitions[0] ?? [])
      : ops.map((op) => mergeRepetitions(repetitions, op));
  for (const phase of merged) {
    hooks.onPhaseDone?.(pointIndex, phase);
    const intervals = phase.summary.negativeIntervals ?? 0;
    if (intervals > 0) {
      notify(hooks, { code: "negativeIntervals", params: { op: phase.shape.op, intervals } });
    }
  }
  const phases = merged.map(({ summary }) => summary);
  if (repetitions.length <= 1) return { params, finished, phases };
  return {
    params,
    finished,
    phases,
    ...repetitionFigures(repetitions.map((each) => each.map(({ summary }) => summary))),
  };
}

/** One operation's repetitions as one phase: their accounts merged, as segments of their own. */
function mergeRepetitions(repetitions: readonly PhaseResult[][], op: Operation): PhaseResult {
  const results = repetitions.flatMap((phases) => phases.filter((phase) => phase.shape.op === op));
  const [first] = results;
  if (!first) throw new Error(`no repetition ran ${op}`);
  const account = new PhaseAccount(first.shape);
  try {
    for (const result of results) account.merge(result.account);
    const client = mergeClientHealth(results.map((result) => result.summary.client));
    const untilSteady = results.flatMap((result) => result.summary.untilSteady ?? []);
    const summary = {
      ...account.summary(),
      ...(client ? { client } : {}),
      ...(untilSteady.length > 0 ? { untilSteady } : {}),
    };
    return { shape: first.shape, summary, account: account.snapshot() };
  } finally {
    account.destroy();
  }
}

/**
 * What a request mode will not do as one might think, said before the run: operations it never
 * sends backups for, and backups that share the one replica there is.
 */
function modeNotices(spec: RunSpec): RunNotice[] {
  if (spec.mode === "normal") return [];
  const notices: RunNotice[] = [];
  const replicas = spec.endpoints?.length ?? spec.testbed.replicas;
  if (replicas === 1) notices.push({ code: "backupsShareReplica", params: { mode: spec.mode } });
  const mix = spec.workload ? parseOperationMix(spec.workload.ops) : null;
  if (mix?.ok) {
    const ops = mix.value
      .map((entry) => operationOf(entry.op))
      .filter((op) => NEVER_HEDGED.has(op));
    if (ops.length > 0) notices.push({ code: "unhedgedOps", params: { mode: spec.mode, ops } });
  }
  return notices;
}

/** Key numbers `firstKey` to `firstKey + count - 1`: the keys of a point's repetition. */
interface KeyRange {
  firstKey: number;
  count: number;
}

/** What names a run's keys and buckets: its id, or a shard's own (core's shardKeySpace). */
function keySpaceOf(runId: string, shard: ShardPart | null): string {
  return shard ? shardKeySpace(runId, shard.role.index) : runId;
}

/** `<prefix>/<runId>/`; a shard's, `<prefix>/<runId>-<shard>/`. */
function keyPrefixOf(spec: RunSpec, runId: string, shard: ShardPart | null): string {
  return `${spec.keyPrefix}/${keySpaceOf(runId, shard)}/`;
}

/**
 * Endpoint, credentials and bucket of one replica, checked before the first request (or the
 * bucket created with --create-bucket, which says so and that it stays); a failure is an
 * InputError naming the endpoint, `credentials` or `bucket`.
 */
async function preflight(
  spec: RunSpec,
  controlPlane: ControlPlane,
  url: string,
  hooks: RunHooks,
  retry?: Pick<RetryOptions, "now" | "giveUpAtMs">,
): Promise<void> {
  const check = () => checkOrCreateBucket(spec, controlPlane, url, hooks);
  let retrying = false;
  try {
    if (!retry) await check();
    else {
      await retryTransient(check, {
        ...retry,
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        isTransient: (error) =>
          error instanceof EndpointError &&
          (error.unanswered || isTransientStorageError(error.cause)),
        onRetry: (error) => {
          if (retrying) return;
          retrying = true;
          const until = new Date(retry.giveUpAtMs()).toISOString();
          notify(hooks, {
            code: "preflightRetrying",
            params: { url, error: (error as Error).message, until },
          });
        },
      });
    }
  } catch (error) {
    if (!(error instanceof EndpointError)) throw error;
    // The field names the endpoint already: its message without it, so it is not said twice.
    throw error.field === "endpoint"
      ? InputError.of(`endpoint ${url}`, error.detail)
      : InputError.of(error.field, error.said);
  }
}

async function checkOrCreateBucket(
  spec: RunSpec,
  controlPlane: ControlPlane,
  url: string,
  hooks: RunHooks,
): Promise<void> {
  try {
    await controlPlane.checkAccess();
  } catch (error) {
    if (!(error instanceof EndpointError && error.field === "bucket" && spec.createBucket)) {
      throw error;
    }
    await controlPlane.createBucket();
    notify(hooks, { code: "bucketCreated", params: { bucket: spec.bucket, url } });
  }
}

/** The operations a workload's mix draws from (none without a workload). */
function workloadOperations(spec: RunSpec): Set<Operation> {
  const mix = spec.workload ? parseOperationMix(spec.workload.ops) : null;
  return new Set(mix?.ok ? mix.value.map((entry) => operationOf(entry.op)) : []);
}

interface PointsRun {
  runId: string;
  runStartEpochMs: number;
  keyPrefix: string;
  targets: RunTarget[];
  hooks: RunHooks;
  shard: ShardPart | null;
  /** A live session's knobs, which runPoint follows; null for other runs. */
  tuner: RunTuner | null;
  silence: SilenceWatch;
}

/**
 * The points of a run, and what is left to remove once they are measured: the keys the run
 * wrote and did not delete (a stop, DELETEs that failed), open uploads of a multipart mix and
 * workload buckets; null when the run keeps its objects and makes no buckets.
 */
async function runPoints(
  spec: RunSpec,
  { runId, runStartEpochMs, keyPrefix, targets, hooks, shard, tuner, silence }: PointsRun,
): Promise<{ points: PointSummary[]; leftovers: LeftoverKeys | null; notRun: NotRunPhase[] }> {
  const points = expandSweep(spec);
  const summaries: PointSummary[] = [];
  const wantsCleanup = spec.phases.includes("cleanup");
  const operations = workloadOperations(spec);
  // A workload's buckets are never the run's to keep, whatever the phases say.
  const leaves = (what: "buckets" | "uploads") =>
    [...operations].some((op) => OPERATION_ENTRIES[op].leavesBehind === what);
  const makesBuckets = leaves("buckets");
  const leftoverRanges: KeyRange[] = [];
  // Which keys' writes the server refused: those are not left, nor counted as left.
  const writtenKeys = new WrittenKeyTracker(keyPrefix, { followDeletes: !spec.workload });
  // A gone server's: the phases of the point it went in that did not run, and every later point's.
  const notRun: NotRunPhase[] = [];
  const pointPhases = phasesOfPoint(spec);
  const phasesFrom = (pointIndex: number) =>
    points
      .slice(pointIndex)
      .flatMap((_point, offset) =>
        pointPhases.map((phase) => ({ pointIndex: pointIndex + offset, phase })),
      );
  // With repeat > 1, the point's repetitions from `repetition` on, the phases of each named.
  const repetitionsFrom = (pointIndex: number, repetition: number) =>
    spec.repeat > 1
      ? Array.from({ length: spec.repeat - repetition }, (_unused, offset) =>
          pointPhases.map((phase) => ({ pointIndex, phase, repetition: repetition + offset })),
        ).flat()
      : [];
  // A silence in the run's last phase with nothing after it (no cleanup) needs no probe.
  const endsRun = (pointIndex: number, repetition: number, phase: string) =>
    !wantsCleanup &&
    !makesBuckets &&
    pointIndex === points.length - 1 &&
    repetition === spec.repeat - 1 &&
    phase === pointPhases.at(-1);
  let firstKey = 0;
  let firstPhaseIndex = 0;
  for (const [pointIndex, wholePoint] of points.entries()) {
    if (hooks.signal?.aborted) break;
    if (!(await silence.serverAnswers())) {
      notRun.push(...phasesFrom(pointIndex));
      break;
    }
    const params = shard ? shardPointParams(wholePoint, shard.role) : wholePoint;
    const repetitions: PhaseResult[][] = [];
    let finished = true;
    let serverGone = false;
    for (let repetition = 0; repetition < spec.repeat && !hooks.signal?.aborted; repetition += 1) {
      if (repetition > 0 && !(await silence.serverAnswers())) {
        notRun.push(...repetitionsFrom(pointIndex, repetition));
        serverGone = true;
        break;
      }
      const phases: PhaseResult[] = [];
      const result = await runPoint({
        targets,
        transportKind: spec.transport,
        params,
        openLoop: spec.openLoop ?? null,
        workload:
          spec.workload && shard
            ? shardWorkload(spec.workload, shard.role)
            : (spec.workload ?? null),
        mode: spec.mode,
        hedge: spec.hedge,
        replicaChoice: spec.replicaChoice,
        phases: spec.phases,
        keyPrefix,
        firstKey,
        firstPhaseIndex,
        workers: spec.workers ?? defaultWorkerCount(),
        verify: spec.verify,
        runStartEpochMs,
        ...(spec.untilSteady ? { untilSteady: spec.untilSteady } : {}),
        ...(shard
          ? {
              shard: {
                ...shard.role,
                firstClient: firstClientOfShard(wholePoint.clients, shard.role),
              },
              startGate: shard.startGate,
              onStarted: shard.onStarted,
            }
          : {}),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        // The live lab answers its knobs: a backlog past the bound is shed, not kept for minutes.
        ...(tuner ? { tuner, shedBacklogAfterMs: LIVE_LAB_BACKLOG_MS } : {}),
        onProgress: ({
          percentiles,
          recentPercentiles,
          intervals,
          encodeLatency,
          encodeRecentIntervals,
          ended,
          clientSeconds,
          ...progress
        }) =>
          hooks.onProgress?.(
            {
              runId,
              pointIndex,
              pointCount: points.length,
              params,
              ...progress,
              runElapsedMs: Math.max(0, epochNowMs() - runStartEpochMs),
              p50Ms: percentiles?.p50Ms ?? null,
              p99Ms: percentiles?.p99Ms ?? null,
            },
            {
              percentiles,
              recentPercentiles,
              intervals,
              encodeLatency,
              encodeRecentIntervals,
              ended,
              clientSeconds,
            },
          ),
        onRecords: (records) => {
          for (const record of records) writtenKeys.add(record);
          hooks.onRecords?.(pointIndex, records);
        },
        ...(hooks.onIntervals
          ? { onIntervals: (op, intervals) => hooks.onIntervals?.(pointIndex, op, intervals) }
          : {}),
        ...(shard ? { recentSeconds: shard.recentSeconds } : {}),
        onPhaseStart: (op) => hooks.onPhaseStart?.(pointIndex, op),
        onPhaseDone: (phase) => phases.push(phase),
        onServerLost: (loss, phase) =>
          silence.lost(pointIndex, phase, loss, endsRun(pointIndex, repetition, phase)),
        serverAnswers: () => silence.serverAnswers(),
      });
      repetitions.push(phases);
      if (result.serverGone) {
        const ofRepetition = spec.repeat > 1 ? { repetition } : {};
        notRun.push(...result.notRun.map((phase) => ({ pointIndex, phase, ...ofRepetition })));
        notRun.push(...repetitionsFrom(pointIndex, repetition + 1));
        serverGone = true;
      }
      // A point a gone server cut is not stopped: its figures cover what ran, notRun the rest.
      finished &&= !result.stopped;
      const deleteFailed = result.phases.some(
        ({ summary }) => summary.op === "DELETE" && summary.errors > 0,
      );
      const leftover = result.writtenKeyCount > result.deletedKeyCount || deleteFailed;
      if (wantsCleanup && leftover)
        leftoverRanges.push({ firstKey, count: result.writtenKeyCount });
      firstKey += result.keySpan;
      firstPhaseIndex += result.phaseCount;
      if (serverGone) break;
    }
    const point = pointSummary(params, repetitions, finished, pointIndex, hooks);
    summaries.push(point);
    hooks.onPointDone?.(pointIndex, point);
    if (serverGone) {
      notRun.push(...phasesFrom(pointIndex + 1));
      break;
    }
  }
  const leftovers =
    wantsCleanup || makesBuckets
      ? {
          objects: writtenKeys.leftIn(leftoverRanges),
          keyPrefix,
          uploads: wantsCleanup && leaves("uploads"),
          bucketsOfRun: makesBuckets ? keySpaceOf(runId, shard) : null,
        }
      : null;
  return { points: summaries, leftovers, notRun };
}

/** What a run's cleanup will remove: the keys it knows it left, and what it lists. */
type LeftoverKeys = LeftoverPlan & { objects: WrittenKeys };
