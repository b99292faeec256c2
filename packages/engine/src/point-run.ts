import type {
  ClientSecond,
  HedgeOptions,
  IntervalStats,
  LivePercentiles,
  OpenLoop,
  Operation,
  Phase,
  PhaseSummary,
  RecentIntervals,
  ReplicaChoice,
  RequestMode,
  RequestRecord,
  RunPointParams,
  SteadyOutcome,
  TransportKind,
  UntilSteady,
  Workload,
} from "@taillab/api";
import { PART_OPERATIONS } from "@taillab/api";
import {
  evenShares,
  maxSizeBytes,
  mixOperations,
  parseSizeDistribution,
  PhaseAccount,
  phasesPerRepetition,
  sendsBackups,
  livePercentilesOf,
  RECENT_WINDOW_SECONDS,
  encodeTally,
  tallyPercentileUs,
  ClientHealthAccount,
  INTERVAL_US,
  SteadyWatch,
  steadyOutcome,
  type EncodedTally,
  type PhaseAccountDelta,
  type PhaseAccountShape,
  type ShardRole,
} from "@taillab/core";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { createSharedContentBytes } from "./object-content.ts";
import { recordsOf } from "./record-batch.ts";
import { SCHEDULE, type ScheduleBuffers } from "./open-loop-schedule.ts";
import { arrivalsOf, startSchedulePacer, type SchedulePacer } from "./schedule-pacer.ts";
import { createHealthBuffer, type ServerLoss } from "./server-health.ts";
import type { TransportTarget } from "./transport/index.ts";
import { createRunClock, monotonicMsAtEpoch, spinUntil } from "./run-clock.ts";
import type { EngineTuning, RunTuner } from "./run-tuner.ts";
import type {
  CoordinatorMessage,
  MixOrder,
  PhaseCommand,
  WorkerInit,
  WorkerMessage,
} from "./worker-protocol.ts";
import { engineWorkerEnv, engineWorkerUrl } from "./worker-url.ts";

export interface PointRunOptions {
  /** One per replica of the service; attempts are spread over them. */
  targets: Omit<TransportTarget, "maxConnections">[];
  transportKind: TransportKind;
  params: RunPointParams;
  /** A mixed workload instead of the phases (which then only say whether to clean up). */
  workload: Workload | null;
  /** null: s3bench's closed loop. In an open loop params.samples is the requests per phase. */
  openLoop: OpenLoop | null;
  mode: RequestMode;
  hedge: HedgeOptions;
  replicaChoice: ReplicaChoice;
  phases: readonly Phase[];
  /** `<prefix>/<runId>/`: every key this point touches starts with it. */
  keyPrefix: string;
  /** Key numbers of this point start here, so the points of a sweep never share a key. */
  firstKey: number;
  /** The run's number for this point's first phase; its other phases are numbered on from it. */
  firstPhaseIndex: number;
  /** Worker threads; fewer are used when there are fewer clients. */
  workers: number;
  verify: boolean;
  runStartEpochMs: number;
  /**
   * A shard of a distributed run: its clients are numbered on from `firstClient` (after the
   * shards before it), and an open loop sends only its own requests of the run's one schedule.
   */
  shard?: ShardRole & { firstClient: number };
  /**
   * Called before each measured phase, once the workers are up (a workload prepares its objects
   * first), with the phase's number: it answers when that phase starts, epoch ms, and the
   * coordinator sleeps, then spins to it. An open loop's schedule starts then, the same instant
   * in every shard.
   */
  startGate?: (phaseIndex: number) => Promise<number>;
  /** When a gated phase was sent off, epoch ms. */
  onStarted?: (epochMs: number) => void;
  signal?: AbortSignal;
  onProgress?: (progress: PhaseProgress) => void;
  onRecords?: (records: RequestRecord[]) => void;
  /**
   * A measured phase's seconds (interval tallies), each operation's in time order, handed over
   * once they are `recentSeconds` old and the rest as the phase ends: a long phase holds only
   * its newest seconds. A second that gets answers after it was handed over comes again with
   * them alone. Without it, seconds are dropped when they are handed over.
   */
  onIntervals?: (op: Operation, intervals: PhaseAccountDelta["intervals"]) => void;
  /**
   * How many of the newest seconds stay in memory for `encodeRecentIntervals` (a distributed
   * run's progress); default DEFAULT_RECENT_SECONDS.
   */
  recentSeconds?: number;
  /** A measured phase starts: hosts that show phases as they go reset their figures here. */
  onPhaseStart?: (op: Operation) => void;
  /** Each operation of a measured phase, as it ends. */
  onPhaseDone?: (phase: PhaseResult) => void;
  /**
   * A live session: its mode, hedge options and replicas may change while the point runs (they
   * replace `mode`, `hedge` and `targets`), and backups are accounted for from the start.
   */
  tuner?: RunTuner;
  /**
   * A phase ended early because the server stopped answering: since when, and the phase's
   * operation ("mix" for a mixed workload, "prepare" for the writing of its objects).
   */
  onServerLost?: (loss: ServerLoss, phase: Operation | "mix" | "prepare") => void;
  /**
   * After a phase the server's silence ended early, before the next phase of the point: whether
   * the server answers now (one probe). No answer ends the point there, its later phases not
   * run. Without it the point goes on.
   */
  serverAnswers?: () => Promise<boolean>;
  /**
   * An open loop that must keep answering (the live lab): arrivals more than this behind their
   * schedule are shed and counted rather than sent. Without it every arrival is sent, however late.
   */
  shedBacklogAfterMs?: number;
  /**
   * Each measured phase but the cleanup ends once its tail figure is steady (core's
   * steady-state.ts); its count or duration is then its maximum.
   */
  untilSteady?: UntilSteady;
}

/** One operation of one phase as it ended. */
export interface PhaseResult {
  shape: PhaseAccountShape;
  summary: PhaseSummary;
  /**
   * The whole account but its seconds (those went to `onIntervals`): histograms and everything
   * to merge it with others exactly.
   */
  account: PhaseAccountDelta;
}

/** Live figures of the phase running now (a mix: totals of all its operations). */
export interface PhaseProgress {
  op: Operation;
  done: number;
  total: number;
  errors: number;
  /** Over about the last second, so the figure follows the run rather than its average. */
  opsPerSec: number;
  elapsedMs: number;
  /** Of `op` so far; null before its first success. */
  percentiles: LivePercentiles | null;
  /** Of `op` in its newest RECENT_WINDOW_SECONDS seconds; null before a success in them. */
  recentPercentiles: LivePercentiles | null;
  /** `op`'s intervals that changed since the last progress. */
  intervals: IntervalStats[];
  /** `op`'s latency histogram so far, encoded (only during the call: the phase goes on). */
  encodeLatency(): EncodedTally | null;
  /**
   * `op`'s newest `seconds` intervals, encoded (only during the call); null before any. At most
   * `recentSeconds` of them: older ones were handed to `onIntervals`.
   */
  encodeRecentIntervals(seconds: number): RecentIntervals | null;
  /** The phase has ended: these are its last figures, with every request it measured. */
  ended: boolean;
  /** The client's seconds that changed since the last progress (core's client health). */
  clientSeconds: ClientSecond[];
}

/** Seconds a phase keeps in memory by default: a minute of percentiles over time. */
export const DEFAULT_RECENT_SECONDS = 60;

export interface PointRunResult {
  phases: PhaseResult[];
  /** Keys the write phase sent a PUT for: firstKey … firstKey + writtenKeyCount - 1. */
  writtenKeyCount: number;
  /** Keys the cleanup phase sent a DELETE for, from firstKey on. */
  deletedKeyCount: number;
  /** Key numbers this point may have used, from firstKey on: the next point starts after them. */
  keySpan: number;
  /** Phase numbers this point used, from firstPhaseIndex on. */
  phaseCount: number;
  stopped: boolean;
  /** The server stopped answering and did not answer the probe: the point ended early. */
  serverGone: boolean;
  /** The phases it did not start for that reason, as operations ("mix" for a workload's mix). */
  notRun: (Operation | "mix")[];
}

const OPERATION_OF_PHASE: Record<Phase, Operation> = {
  write: "PUT",
  read: "GET",
  cleanup: "DELETE",
};
const PROGRESS_INTERVAL_MS = 100;
/**
 * A client worker's young generation (V8's default grows it to 3 × 16 MB per thread on a large
 * machine): a worker makes much short-lived garbage per request, and a 10 M-request run's worker
 * heaps held about 200 MB for 43 MB of live data. 12 MB kept `taillab run` near 300 MB at the
 * same throughput (pnpm bench long-run).
 */
const CLIENT_WORKER_YOUNG_GENERATION_MB = 12;
/** ops/s over about the last second. */
const RATE_WINDOW_MS = 1000;
/**
 * After a stop, workers get this long to hand over what they measured; then they are terminated
 * wherever they are, so a stop ends the run in well under a second at any scale.
 */
const STOP_GRACE_MS = 400;

/**
 * One run point, spread over worker threads so this thread does no request work.
 * - Phases (s3bench): write, read, cleanup. Closed loop: `clients` loops share `samples`
 *   requests. Open loop: requests leave on the schedule and reads cycle over the written keys.
 *   Cleanup is always a closed loop over the written keys, never hedged.
 * - A workload: its objects are prepared (written, not measured), then the operation mix runs
 *   for `samples` requests (or its duration), one summary per operation. The objects it leaves
 *   are the caller's to delete (writtenKeyCount from firstKey on).
 */
export async function runPoint(options: PointRunOptions): Promise<PointRunResult> {
  const pool = await startWorkers(options);
  try {
    return options.workload
      ? await runWorkload(pool, options, options.workload)
      : await runPhases(pool, options);
  } finally {
    await pool.terminate();
  }
}

async function runPhases(pool: WorkerPool, options: PointRunOptions): Promise<PointRunResult> {
  const { params } = options;
  const phases: PhaseResult[] = [];
  let writtenKeyCount = 0;
  let deletedKeyCount = 0;
  let phaseIndex = options.firstPhaseIndex;
  let serverGone = false;
  const notRun: PointRunResult["notRun"] = [];
  for (const phase of options.phases) {
    if (options.signal?.aborted) break;
    const op = OPERATION_OF_PHASE[phase];
    if (serverGone) {
      notRun.push(op);
      continue;
    }
    const openLoop = phase === "cleanup" ? null : options.openLoop;
    // Run until steady, samples are each phase's maximum: a read cycles over the keys written.
    const endsWhenSteady = phase !== "cleanup" && options.untilSteady !== undefined;
    const order: PhaseOrder = {
      op,
      phaseIndex: phaseIndex++,
      measured: true,
      count: phase === "write" || openLoop || endsWhenSteady ? params.samples : writtenKeyCount,
      firstKey: options.firstKey,
      keyCount: phase === "write" ? params.samples : Math.max(1, writtenKeyCount),
      allowBackups: phase !== "cleanup" && options.mode !== "normal",
      mix: null,
      // The cleanup deletes every key written: it never ends early.
      endsWhenSteady,
    };
    const { dispensed, serverLost } = await runReportedPhase(
      pool,
      order,
      openLoop,
      options,
      phases,
    );
    if (phase === "write") writtenKeyCount = dispensed;
    if (phase === "cleanup") deletedKeyCount = dispensed;
    const isLast = phase === options.phases.at(-1);
    if (serverLost && !isLast && options.serverAnswers)
      serverGone = !(await options.serverAnswers());
  }
  return {
    phases,
    writtenKeyCount,
    deletedKeyCount,
    keySpan: params.samples,
    // Every phase keeps its number, run or not (records number phases over the whole run).
    phaseCount: phasesPerRepetition(options),
    stopped: options.signal?.aborted ?? false,
    serverGone,
    notRun,
  };
}

/**
 * A workload: its objects are prepared first (sent and recorded as not measured), then the mix
 * runs as one measured phase.
 */
async function runWorkload(
  pool: WorkerPool,
  options: PointRunOptions,
  workload: Workload,
): Promise<PointRunResult> {
  const { params, firstKey } = options;
  const prepare: PhaseOrder = {
    op: "PUT",
    phaseIndex: options.firstPhaseIndex,
    measured: false,
    count: workload.prepareObjects,
    firstKey,
    keyCount: workload.prepareObjects,
    allowBackups: false,
    mix: null,
    endsWhenSteady: false,
  };
  const prepared = await pool.runPhase(prepare, null, options, undefined);
  const newKeys = new SharedArrayBuffer(4);
  const phases: PhaseResult[] = [];
  // A server gone while the objects were prepared ends the point as it ends a phase: no mix.
  if (prepared.serverLost && options.serverAnswers && !(await options.serverAnswers())) {
    return {
      phases,
      writtenKeyCount: prepared.dispensed,
      deletedKeyCount: 0,
      keySpan: workload.prepareObjects,
      phaseCount: phasesPerRepetition(options),
      stopped: options.signal?.aborted ?? false,
      serverGone: true,
      notRun: ["mix"],
    };
  }
  const preparedFailures = prepared.failures;
  if (preparedFailures > 0) {
    throw new Error(
      `preparing the workload's ${workload.prepareObjects} objects failed ${preparedFailures} times; the mix would read missing objects`,
    );
  }
  // An open loop until stopped has no count: it ends with the stop.
  const count = options.openLoop?.untilStopped ? Number.POSITIVE_INFINITY : params.samples;
  if (!options.signal?.aborted) {
    const [first] = mixOperations(workload);
    const mix: PhaseOrder = {
      op: first ?? "GET",
      phaseIndex: options.firstPhaseIndex + 1,
      measured: true,
      count,
      firstKey,
      keyCount: workload.prepareObjects,
      allowBackups: options.mode !== "normal" || options.tuner !== undefined,
      mix: {
        workload,
        newKeyFirst: firstKey + workload.prepareObjects,
        newKeys,
        movedBytes: new SharedArrayBuffer(8),
      },
      endsWhenSteady: true,
    };
    await runReportedPhase(pool, mix, options.openLoop, options, phases);
  }
  const created = Math.min(count, Atomics.load(new Int32Array(newKeys), 0));
  return {
    phases,
    writtenKeyCount: prepared.dispensed + created,
    deletedKeyCount: 0,
    // Without a count, the keys it made are all the keys it used.
    keySpan: workload.prepareObjects + (Number.isFinite(count) ? count : created),
    phaseCount: phasesPerRepetition(options),
    stopped: options.signal?.aborted ?? false,
    serverGone: false,
    notRun: [],
  };
}

/** How the host names a phase: its operation, "mix" or a workload's "prepare". */
function phaseName(order: PhaseOrder): Operation | "mix" | "prepare" {
  if (order.mix) return "mix";
  return order.measured ? order.op : "prepare";
}

/** Runs a measured phase and hands each of its operations' results to the host as they come. */
async function runReportedPhase(
  pool: WorkerPool,
  order: PhaseOrder,
  openLoop: OpenLoop | null,
  options: PointRunOptions,
  phases: PhaseResult[],
): Promise<{ dispensed: number; serverLost: boolean }> {
  options.onPhaseStart?.(order.op);
  const result = await pool.runPhase(order, openLoop, options, options.startGate);
  for (const phase of result.phases) {
    options.onPhaseDone?.(phase);
    phases.push(phase);
  }
  return result;
}

/** An open loop's schedule starts a moment ahead, so every worker has the command by then. */
const OPEN_LOOP_START_DELAY_MS = 20;

/** A phase as the coordinator decides it; shared buffers and timings are added when it starts. */
type PhaseOrder = Omit<PhaseCommand, "type" | "nextIndex" | "schedule" | "mix" | "health"> & {
  mix: Omit<MixOrder, "deadlineUs" | "warmupEndUs"> | null;
  /** With the run's untilSteady, the phase may end early (not sent to the workers). */
  endsWhenSteady: boolean;
};

interface PhaseRunResult {
  phases: PhaseResult[];
  /** Closed loop: request numbers handed out (capped at the count). */
  dispensed: number;
  /** Requests of the phase that failed (a workload's preparation must have none). */
  failures: number;
  /** The server stopped answering: that ended the phase early. */
  serverLost: boolean;
}

/** Live figures of a phase's accounts: totals of all, percentiles and intervals of the busiest. */
class PhaseProgressMeter {
  private readonly startedAtMs = Date.now();
  private readonly rateSamples: { atMs: number; done: number }[] = [];
  private readonly total: number;

  /** `total` requests, or none known (an open loop until stopped). */
  constructor(total: number) {
    this.total = Number.isFinite(total) ? total : 0;
  }

  progress(
    accounts: ReadonlyMap<Operation, PhaseAccount>,
    fallbackOp: Operation,
    ended: boolean,
    clientSeconds: ClientSecond[],
  ): PhaseProgress {
    const nowMs = Date.now();
    let done = 0;
    let errors = 0;
    let busiest: PhaseAccount | null = null;
    for (const account of accounts.values()) {
      done += account.requests;
      errors += account.errors;
      if (!busiest || account.requests > busiest.requests) busiest = account;
    }
    this.rateSamples.push({ atMs: nowMs, done });
    while ((this.rateSamples[0]?.atMs ?? nowMs) < nowMs - RATE_WINDOW_MS) this.rateSamples.shift();
    const oldest = this.rateSamples[0] ?? { atMs: nowMs, done };
    const windowMs = nowMs - oldest.atMs;
    return {
      op: busiest?.shape.op ?? fallbackOp,
      done,
      total: this.total,
      errors,
      opsPerSec: windowMs > 0 ? ((done - oldest.done) * 1000) / windowMs : 0,
      elapsedMs: nowMs - this.startedAtMs,
      percentiles: busiest ? livePercentilesOf(busiest.latency) : null,
      recentPercentiles: busiest?.recentPercentiles(RECENT_WINDOW_SECONDS) ?? null,
      intervals: busiest?.takeChangedIntervals() ?? [],
      encodeLatency: () =>
        busiest && busiest.latency.count > 0 ? encodeTally(busiest.latency) : null,
      encodeRecentIntervals: (seconds) => busiest?.recentIntervals(seconds) ?? null,
      ended,
      clientSeconds,
    };
  }
}

interface WorkerPool {
  runPhase(
    order: PhaseOrder,
    openLoop: OpenLoop | null,
    options: PointRunOptions,
    startGate: PointRunOptions["startGate"],
  ): Promise<PhaseRunResult>;
  terminate(): Promise<void>;
}

/**
 * One worker thread per core but one: that core is left to the coordinator (merging, progress,
 * the embedded testbed) and, on a laptop, to the server under test. Measured on 2 cores against
 * MinIO (4 KiB, 16 in flight): one worker did 1.10x a bare undici loop's GET/s at 1.03x its
 * CPU per request, two workers 1.03x at 1.48x the CPU, taken from the server being measured.
 */
export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Every object is a prefix of one shared buffer: it must hold the largest. */
function largestObjectBytes({ workload, params }: PointRunOptions): number {
  if (workload?.sizes === undefined) return params.objectSizeBytes;
  const parsed = parseSizeDistribution(workload.sizes);
  if (!parsed.ok) throw new Error(`workload.sizes: ${parsed.reason}`);
  return maxSizeBytes(parsed.value);
}

/** Splits clients as evenly as possible: 10 clients on 4 workers → 3, 3, 2, 2. */
export function splitClients(clients: number, workers: number): number[] {
  return evenShares(clients, Math.max(1, Math.min(workers, clients)));
}

/**
 * Connections a worker needs per replica: one per client, twice that when requests may send a
 * backup (the backup of a client's request must not wait for the client's own connection).
 */
export function connectionsPerReplica(clients: number, mode: RequestMode): number {
  return mode === "normal" ? clients : clients * 2;
}

async function startWorkers(options: PointRunOptions): Promise<WorkerPool> {
  const sizes = options.workload?.sizes;
  const content = createSharedContentBytes(largestObjectBytes(options));
  const shares = splitClients(options.params.clients, options.workers);
  const tuning: EngineTuning = options.tuner?.current ?? options;
  // A live session may turn backups on at any time: its pools are sized for them from the start.
  const poolMode = options.tuner ? "hedged" : options.mode;
  let firstClient = options.shard?.firstClient ?? 0;
  // Every thread's clock counts from this one instant (run-clock.ts).
  const runStartMonotonicMs = monotonicMsAtEpoch(options.runStartEpochMs);
  const workers = shares.map((clients, workerIndex) => {
    const connections = connectionsPerReplica(clients, poolMode);
    const init: WorkerInit = {
      targets: tuning.targets.map((target) => ({ ...target, maxConnections: connections })),
      transportKind: options.transportKind,
      clients,
      firstClient,
      workerIndex,
      runStartMonotonicMs,
      keyPrefix: options.keyPrefix,
      content,
      objectSizeBytes: options.params.objectSizeBytes,
      objectSizes:
        sizes === undefined ? null : { distribution: sizes, seed: options.workload?.seed ?? 1 },
      verify: options.verify,
      mode: tuning.mode,
      hedge: tuning.hedge,
      replicaChoice: options.replicaChoice,
      collectRecords: options.onRecords !== undefined,
      // An open loop's clients are its connections: one request each in flight. A request
      // released beyond them waits in the schedule, late and measured from its intended start,
      // rather than in undici's queue, where thousands cost memory and CPU and measure the same.
      maxOutstanding: clients,
      shedBacklogAfterMs: options.shedBacklogAfterMs ?? null,
    };
    firstClient += clients;
    return new Worker(engineWorkerUrl("client-worker"), {
      workerData: init,
      env: engineWorkerEnv(),
      resourceLimits: { maxYoungGenerationSizeMb: CLIENT_WORKER_YOUNG_GENERATION_MB },
    });
  });
  const clock = createRunClock(runStartMonotonicMs);
  // A failure anywhere (a worker that crashed, or reported failure) fails the current step.
  let fail: (error: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failure.catch(() => {});
  let terminated = false;
  for (const worker of workers) {
    worker.on("error", (error) => fail(error));
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "failed") fail(new Error(`client worker failed: ${message.message}`));
    });
  }
  await Promise.race([Promise.all(workers.map((worker) => nextMessage(worker, "ready"))), failure]);
  const broadcast = (message: CoordinatorMessage) => {
    for (const worker of workers) worker.postMessage(message);
  };
  // Each worker keeps its pools' size: they were sized for backups from the start. Workers that
  // end meanwhile send no request anywhere, so their end answers for them.
  const retune = async ({ mode, hedge, targets }: EngineTuning) => {
    const retuned = workers.map((worker, index) => {
      const maxConnections = connectionsPerReplica(shares[index] ?? 1, poolMode);
      const message: CoordinatorMessage = {
        type: "retune",
        mode,
        hedge,
        targets: targets.map((target) => ({ ...target, maxConnections })),
      };
      const answered = answerOrExit(worker, "retuned");
      worker.postMessage(message);
      return answered;
    });
    await Promise.race([Promise.all(retuned), failure.catch(() => {})]);
  };
  const unfollow = options.tuner?.follow(retune);
  const terminate = async () => {
    unfollow?.();
    terminated = true;
    await Promise.all(workers.map((worker) => worker.terminate()));
  };

  return {
    async runPhase(order, openLoop, options, startGate) {
      const { hedge, onProgress, onRecords, onIntervals, onServerLost, signal } = options;
      const recentSeconds = options.recentSeconds ?? DEFAULT_RECENT_SECONDS;
      const accounts = new Map<Operation, PhaseAccount>();
      const loop = openLoop ? "open" : "closed";
      const accountOf = (op: Operation) => {
        let account = accounts.get(op);
        if (!account) {
          const backups = order.allowBackups && sendsBackups(poolMode, op);
          const budgetPercent = (options.tuner?.current.hedge ?? hedge).budgetPercent;
          account = new PhaseAccount({
            op,
            loop,
            hedgeBudgetPct: backups ? budgetPercent : null,
          });
          accounts.set(op, account);
        }
        return account;
      };
      const health = new ClientHealthAccount({
        availableCores: availableParallelism(),
        workers: workers.length,
        clients: shares.reduce((sum, clients) => sum + clients, 0),
        loop,
        sheds: openLoop !== null && options.shedBacklogAfterMs !== undefined,
      });
      // Summaries in the order the mix names its operations, whatever answered first.
      for (const op of order.mix ? mixOperations(order.mix.workload) : [order.op]) accountOf(op);
      const nextIndex = new SharedArrayBuffer(4);
      // From the phase's start: a gated phase waits for its start first.
      let meter: PhaseProgressMeter | null = null;
      const { endsWhenSteady, ...commandOrder } = order;
      const steadyRule = endsWhenSteady && order.measured ? (options.untilSteady ?? null) : null;
      const watches = new Map<Operation, SteadyWatch>();
      let startedAtMs = 0;
      // Closed loop: the requests handed out when the phase was found steady.
      let handedOutWhenSteady: number | null = null;
      // Each operation's figures when the phase was found steady: what the rule judged.
      let foundSteady: Map<Operation, SteadyOutcome> | null = null;
      // Requests sent but not counted yet: at most one per client (the rest of the gap is
      // answers a worker has yet to report, no slower than others), and an open loop's requests
      // due but not yet sent (late). A mix does not say which operation they are: each operation
      // is looked at with all of them.
      const clients = shares.reduce((sum, each) => sum + each, 0);
      const inFlight = () => {
        let counted = 0;
        for (const [op, account] of accounts) {
          // Parts are requests within another (a multipart upload), not requests handed out.
          if (!PART_OPERATIONS.has(op)) counted += account.requests;
        }
        if (!pacer) {
          const handedOut = Math.min(order.count, Atomics.load(new Int32Array(nextIndex), 0));
          return Math.min(clients, Math.max(0, handedOut - counted));
        }
        const schedule = new Int32Array(pacer.buffers.counters);
        const claimed = Atomics.load(schedule, SCHEDULE.claimed);
        const due = Atomics.load(schedule, SCHEDULE.released) - claimed;
        return Math.min(clients, Math.max(0, claimed - counted)) + Math.max(0, due);
      };
      const steadyLook = (account: PhaseAccount) => ({
        elapsedMs: Date.now() - startedAtMs,
        requests: account.requests,
        latency: account.latency,
        inFlight: inFlight(),
      });
      // Every operation must be steady; a closed loop then hands out no more requests and an
      // open loop's pacer releases no more, and the requests in flight finish as at a count.
      const endWhenSteady = () => {
        if (!steadyRule || foundSteady || !meter) return;
        let allSteady = true;
        for (const [op, account] of accounts) {
          let watch = watches.get(op);
          if (!watch) watches.set(op, (watch = new SteadyWatch(steadyRule)));
          allSteady = watch.observe(steadyLook(account)) && allSteady;
        }
        if (!allSteady) return;
        foundSteady = new Map(
          [...accounts].map(([op, account]) => [
            op,
            steadyOutcome(steadyRule, true, steadyLook(account)),
          ]),
        );
        if (pacer) pacer.stop();
        else handedOutWhenSteady = Atomics.exchange(new Int32Array(nextIndex), 0, order.count);
      };
      let serverLost = false;
      const onMessage = (message: WorkerMessage) => {
        if (message.type === "serverLost") {
          serverLost = true;
          onServerLost?.(message.loss, phaseName(order));
        }
        if (message.type !== "report") return;
        for (const { op, delta } of message.deltas) accountOf(op).merge(delta);
        if (message.records) onRecords?.(recordsOf(message.records));
        for (const sample of message.health.samples) health.add(sample);
        for (const { op, buckets } of message.health.stallTails) health.addStallTail(op, buckets);
      };
      const report = (ended: boolean) => {
        if (order.measured && meter) {
          onProgress?.(meter.progress(accounts, order.op, ended, health.takeChangedSeconds()));
        }
      };
      const handOverIntervals = (beforeIndex: number) => {
        for (const [op, account] of accounts) {
          const intervals = account.takeIntervalsBefore(beforeIndex);
          if (intervals.length > 0 && order.measured) onIntervals?.(op, intervals);
        }
      };
      const ticker = setInterval(() => {
        report(false);
        endWhenSteady();
        handOverIntervals(Math.floor(clock() / INTERVAL_US) - recentSeconds + 1);
      }, PROGRESS_INTERVAL_MS);
      let pacer: SchedulePacer | null = null;
      let stopTimer: NodeJS.Timeout | undefined;
      let onStop = () => {};
      const stopped = new Promise<void>((resolve) => {
        onStop = () => {
          broadcast({ type: "stop" });
          pacer?.stop();
          stopTimer = setTimeout(() => void terminate().then(resolve), STOP_GRACE_MS);
        };
      });
      if (signal?.aborted) onStop();
      else signal?.addEventListener("abort", onStop, { once: true });
      try {
        for (const worker of workers) worker.on("message", onMessage);
        const done = Promise.all(workers.map((worker) => nextMessage(worker, "phaseDone")));
        if (openLoop) pacer = await startSchedulePacer(runStartMonotonicMs);
        const gatedAtUs = startGate ? await waitAtGate(startGate, order.phaseIndex, options) : null;
        meter = new PhaseProgressMeter(order.count);
        startedAtMs = Date.now();
        // An open loop's schedule starts a moment ahead, so all workers have the command.
        const startUs = (gatedAtUs ?? clock()) + (openLoop ? OPEN_LOOP_START_DELAY_MS * 1000 : 0);
        const workload = order.mix?.workload;
        const deadlineUs =
          workload?.durationMs === undefined ? null : startUs + workload.durationMs * 1000;
        const command: PhaseCommand = {
          ...commandOrder,
          type: "phase",
          nextIndex,
          health: createHealthBuffer(),
          schedule: pacer?.buffers ?? null,
          mix: order.mix
            ? {
                ...order.mix,
                deadlineUs,
                warmupEndUs: startUs + (workload?.warmupMs ?? 0) * 1000,
              }
            : null,
        };
        if (!terminated) broadcast(command);
        if (openLoop && pacer) {
          void pacer.run({
            schedule: arrivalsOf(openLoop),
            startUs,
            count: order.count,
            deadlineUs,
            shard: options.shard ?? null,
          });
        }
        if (terminated) await stopped;
        else await Promise.race([done, failure, stopped]);
        report(true);
        handOverIntervals(Number.POSITIVE_INFINITY);
        const phases = [...accounts.values()].map((account) => ({
          shape: account.shape,
          summary: {
            ...account.summary(),
            client: health.health(account.shape.op, tailOf(account)),
            ...(steadyRule
              ? {
                  untilSteady: [
                    foundSteady?.get(account.shape.op) ??
                      steadyOutcome(steadyRule, false, steadyLook(account)),
                  ],
                }
              : {}),
          },
          account: account.snapshot(),
        }));
        const handedOut =
          handedOutWhenSteady ?? requestsHandedOut(nextIndex, pacer?.buffers ?? null);
        return {
          phases: order.measured ? phases : [],
          dispensed: Math.min(order.count, handedOut),
          failures: phases.reduce((sum, phase) => sum + phase.summary.errors, 0),
          serverLost,
        };
      } finally {
        clearInterval(ticker);
        clearTimeout(stopTimer);
        signal?.removeEventListener("abort", onStop);
        for (const worker of workers) worker.off("message", onMessage);
        for (const account of accounts.values()) account.destroy();
        await pacer?.close();
      }
    },
    terminate,
  };
}

/**
 * Waits at a distributed run's gate before a phase, then sleeps and spins to the start it
 * answered: the workers are up by then, so the phase leaves at that instant. Returns it on the
 * run clock.
 */
async function waitAtGate(
  startGate: (phaseIndex: number) => Promise<number>,
  phaseIndex: number,
  { runStartEpochMs, onStarted }: PointRunOptions,
): Promise<number> {
  const startAtEpochMs = await startGate(phaseIndex);
  // Not inside onStarted?.(…): without a listener the spin would be skipped with the call.
  const startedAtMs = await spinUntil(startAtEpochMs);
  onStarted?.(startedAtMs);
  return Math.round((startAtEpochMs - runStartEpochMs) * 1000);
}

/** A phase's p99 and p99.9 (µs), which pick the slowest requests; null before an answer. */
function tailOf(account: PhaseAccount): { p99: number; p999: number } | null {
  if (account.latency.count === 0) return null;
  return {
    p99: tallyPercentileUs(account.latency, 99),
    p999: tallyPercentileUs(account.latency, 99.9),
  };
}

/** Request numbers the workers took: from the closed loop's counter, or the open loop's claims. */
function requestsHandedOut(nextIndex: SharedArrayBuffer, schedule: ScheduleBuffers | null): number {
  return schedule
    ? Atomics.load(new Int32Array(schedule.counters), SCHEDULE.claimed)
    : Atomics.load(new Int32Array(nextIndex), 0);
}

/** The worker's next message of `type`, or its exit; no listener is left behind either way. */
function answerOrExit(worker: Worker, type: WorkerMessage["type"]): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: WorkerMessage) => {
      if (message.type === type) done();
    };
    const done = () => {
      worker.off("message", onMessage);
      worker.off("exit", done);
      resolve();
    };
    worker.on("message", onMessage);
    worker.on("exit", done);
  });
}

function nextMessage(worker: Worker, type: WorkerMessage["type"]): Promise<void> {
  return new Promise((resolve) => {
    const listener = (message: WorkerMessage) => {
      if (message.type !== type) return;
      worker.off("message", listener);
      resolve();
    };
    worker.on("message", listener);
  });
}
