import type {
  HedgeOptions,
  OpenLoop,
  Operation,
  Phase,
  PhaseSummary,
  ReplicaChoice,
  RequestMode,
  RequestRecord,
  RunPointParams,
  TransportKind,
  Workload,
} from "@taillab/api";
import { maxSizeBytes, operationOf, parseOperationMix, parseSizeDistribution } from "@taillab/core";
import { availableParallelism } from "node:os";
import { extname } from "node:path";
import { Worker } from "node:worker_threads";
import { NEVER_HEDGED } from "./never-hedged.ts";
import { createSharedContentBytes } from "./object-content.ts";
import {
  PhaseCollector,
  type EncodedPhaseHistograms,
  type PhaseProgress,
} from "./phase-collector.ts";
import type { TransportTarget } from "./transport/index.ts";
import { createRunClock } from "./run-clock.ts";
import type {
  CoordinatorMessage,
  MixOrder,
  PhaseCommand,
  WorkerInit,
  WorkerMessage,
} from "./worker-protocol.ts";

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
  /** Worker threads; fewer are used when there are fewer clients. */
  workers: number;
  verify: boolean;
  runStartEpochMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: PhaseProgress) => void;
  onRecords?: (records: RequestRecord[]) => void;
  /** Phase boundaries, for hosts that show phases as they finish and for CPU accounting. */
  onPhaseStart?: (op: Operation) => void;
  onPhaseDone?: (summary: PhaseSummary, histograms: EncodedPhaseHistograms) => void;
}

export interface PointRunResult {
  phases: PhaseSummary[];
  /** Keys the write phase sent a PUT for: firstKey … firstKey + writtenKeyCount - 1. */
  writtenKeyCount: number;
  /** Keys the cleanup phase sent a DELETE for, from firstKey on. */
  deletedKeyCount: number;
  /** Key numbers this point may have used, from firstKey on: the next point starts after them. */
  keySpan: number;
  stopped: boolean;
}

const OPERATION_OF_PHASE: Record<Phase, Operation> = {
  write: "PUT",
  read: "GET",
  cleanup: "DELETE",
};
const PROGRESS_INTERVAL_MS = 100;
/**
 * The worker beside this module, with its extension: client-worker.ts beside the sources, and
 * client-worker.cjs beside a CommonJS bundle (the desktop app's, see electron/scripts/build.ts).
 */
const WORKER_URL = new URL(
  `./client-worker${extname(new URL(import.meta.url).pathname)}`,
  import.meta.url,
);

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
  const stop = () => pool.broadcast({ type: "stop" });
  options.signal?.addEventListener("abort", stop);
  try {
    return options.workload
      ? await runWorkload(pool, options, options.workload)
      : await runPhases(pool, options);
  } finally {
    options.signal?.removeEventListener("abort", stop);
    await pool.terminate();
  }
}

async function runPhases(pool: WorkerPool, options: PointRunOptions): Promise<PointRunResult> {
  const { params } = options;
  const phases: PhaseSummary[] = [];
  let writtenKeyCount = 0;
  let deletedKeyCount = 0;
  for (const phase of options.phases) {
    if (options.signal?.aborted) break;
    const op = OPERATION_OF_PHASE[phase];
    const openLoop = phase === "cleanup" ? null : options.openLoop;
    const command: PhaseOrder = {
      type: "phase",
      op,
      count: phase === "write" || openLoop ? params.samples : writtenKeyCount,
      firstKey: options.firstKey,
      keyCount: phase === "write" ? params.samples : Math.max(1, writtenKeyCount),
      allowBackups: phase !== "cleanup" && options.mode !== "normal",
      mix: null,
    };
    const { dispensed } = await runReportedPhase(pool, command, openLoop, options, phases);
    if (phase === "write") writtenKeyCount = dispensed;
    if (phase === "cleanup") deletedKeyCount = dispensed;
  }
  return {
    phases,
    writtenKeyCount,
    deletedKeyCount,
    keySpan: params.samples,
    stopped: options.signal?.aborted ?? false,
  };
}

async function runWorkload(
  pool: WorkerPool,
  options: PointRunOptions,
  workload: Workload,
): Promise<PointRunResult> {
  const { params, firstKey } = options;
  const prepare: PhaseOrder = {
    type: "phase",
    op: "PUT",
    count: workload.prepareObjects,
    firstKey,
    keyCount: workload.prepareObjects,
    allowBackups: false,
    mix: null,
  };
  const prepared = await pool.runPhase(prepare, null, options);
  const newKeys = new SharedArrayBuffer(4);
  const phases: PhaseSummary[] = [];
  const preparedFailures = prepared.phases.reduce((sum, phase) => sum + phase.summary.errors, 0);
  if (preparedFailures > 0) {
    throw new Error(
      `preparing the workload's ${workload.prepareObjects} objects failed ${preparedFailures} times; the mix would read missing objects`,
    );
  }
  if (!options.signal?.aborted) {
    const [first] = mixOperations(workload);
    const mix: PhaseOrder = {
      type: "phase",
      op: first ?? "GET",
      count: params.samples,
      firstKey,
      keyCount: workload.prepareObjects,
      allowBackups: options.mode !== "normal",
      mix: {
        workload,
        newKeyFirst: firstKey + workload.prepareObjects,
        newKeys,
        movedBytes: new SharedArrayBuffer(8),
      },
    };
    await runReportedPhase(pool, mix, options.openLoop, options, phases);
  }
  const created = Math.min(params.samples, Atomics.load(new Int32Array(newKeys), 0));
  return {
    phases,
    writtenKeyCount: prepared.dispensed + created,
    deletedKeyCount: 0,
    keySpan: workload.prepareObjects + params.samples,
    stopped: options.signal?.aborted ?? false,
  };
}

/** Runs a phase and hands each of its operations' summaries to the host as they come. */
async function runReportedPhase(
  pool: WorkerPool,
  command: PhaseOrder,
  openLoop: OpenLoop | null,
  options: PointRunOptions,
  phases: PhaseSummary[],
): Promise<{ dispensed: number }> {
  options.onPhaseStart?.(command.op);
  const result = await pool.runPhase(command, openLoop, options);
  for (const { summary, histograms } of result.phases) {
    options.onPhaseDone?.(summary, histograms);
    phases.push(summary);
  }
  return result;
}

/** Workers start a phase's schedule together, a moment after the command is posted. */
const OPEN_LOOP_START_DELAY_MS = 20;

/** A phase as the coordinator decides it; the shared counter and the timings are added later. */
type PhaseOrder = Omit<PhaseCommand, "nextIndex" | "openLoop" | "mix"> & {
  mix: Omit<MixOrder, "deadlineUs" | "warmupEndUs"> | null;
};

interface PhaseResult {
  summary: PhaseSummary;
  histograms: EncodedPhaseHistograms;
}

/**
 * The operations of a mix, in the order the workload names them; a multipart upload is followed
 * by its parts, which get a summary of their own (per-part beside whole-upload latency).
 */
function mixOperations(workload: Workload): Operation[] {
  const mix = parseOperationMix(workload.ops);
  if (!mix.ok) throw new Error(`workload.ops: ${mix.reason}`);
  return mix.value.flatMap((entry) => {
    const op = operationOf(entry.op);
    return op === "MULTIPART" ? [op, "UPLOAD_PART" as const] : [op];
  });
}

/** One progress line for a phase of several operations: totals summed, latency of the busiest. */
function combinedProgress(collectors: PhaseCollector[], total: number): PhaseProgress {
  const nowMs = Date.now();
  const parts = collectors.map((collector) => collector.progress(nowMs));
  const busiest = collectors.reduce((best, collector) =>
    collector.requestCount > best.requestCount ? collector : best,
  );
  const lead = parts[collectors.indexOf(busiest)] as PhaseProgress;
  return {
    ...lead,
    total,
    done: parts.reduce((sum, part) => sum + part.done, 0),
    errors: parts.reduce((sum, part) => sum + part.errors, 0),
    opsPerSec: parts.reduce((sum, part) => sum + part.opsPerSec, 0),
  };
}

interface WorkerPool {
  broadcast(message: CoordinatorMessage): void;
  runPhase(
    command: PhaseOrder,
    openLoop: OpenLoop | null,
    options: PointRunOptions,
  ): Promise<{ phases: PhaseResult[]; dispensed: number }>;
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
  const count = Math.max(1, Math.min(workers, clients));
  return Array.from(
    { length: count },
    (_, index) => Math.floor(clients / count) + (index < clients % count ? 1 : 0),
  );
}

async function startWorkers(options: PointRunOptions): Promise<WorkerPool> {
  const sizes = options.workload?.sizes;
  const content = createSharedContentBytes(largestObjectBytes(options));
  const shares = splitClients(options.params.clients, options.workers);
  const workers = shares.map((clients, workerIndex) => {
    const init: WorkerInit = {
      targets: options.targets.map((target) => ({ ...target, maxConnections: clients })),
      transportKind: options.transportKind,
      clients,
      workerIndex,
      workerCount: shares.length,
      runStartEpochMs: options.runStartEpochMs,
      keyPrefix: options.keyPrefix,
      content,
      objectSizeBytes: options.params.objectSizeBytes,
      objectSizes:
        sizes === undefined ? null : { distribution: sizes, seed: options.workload?.seed ?? 1 },
      verify: options.verify,
      mode: options.mode,
      hedge: options.hedge,
      replicaChoice: options.replicaChoice,
      collectRecords: options.onRecords !== undefined,
    };
    return new Worker(WORKER_URL, { workerData: init });
  });
  const clock = createRunClock(options.runStartEpochMs);
  // A failure anywhere (a worker that crashed, or reported failure) fails the current step.
  let fail: (error: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failure.catch(() => {});
  for (const worker of workers) {
    worker.on("error", (error) => fail(error));
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "failed") fail(new Error(`client worker failed: ${message.message}`));
    });
  }
  await Promise.race([Promise.all(workers.map((worker) => nextMessage(worker, "ready"))), failure]);

  return {
    broadcast(message) {
      for (const worker of workers) worker.postMessage(message);
    },
    async runPhase(command, openLoop, { onProgress, onRecords, hedge }) {
      const nextIndex = new SharedArrayBuffer(4);
      const ops = command.mix ? mixOperations(command.mix.workload) : [command.op];
      const collectors = new Map(
        ops.map((op) => [
          op,
          new PhaseCollector(
            {
              op,
              total: command.count,
              openLoop: openLoop !== null,
              hedgeBudgetPct:
                command.allowBackups && !NEVER_HEDGED.has(op) ? hedge.budgetPercent : null,
            },
            Date.now(),
          ),
        ]),
      );
      const collectorOf = (op: Operation) => {
        const collector = collectors.get(op);
        if (!collector) throw new Error(`a worker reported ${op}, which this phase does not run`);
        return collector;
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.type === "report") {
          collectorOf(message.op).addReport(message);
          if (message.records.length > 0) onRecords?.(message.records);
        } else if (message.type === "phaseDone") {
          for (const span of message.spans) collectorOf(span.op).addSpan(span);
        }
      };
      const report = () => onProgress?.(combinedProgress([...collectors.values()], command.count));
      const ticker = setInterval(report, PROGRESS_INTERVAL_MS);
      try {
        for (const worker of workers) worker.on("message", onMessage);
        const done = Promise.all(workers.map((worker) => nextMessage(worker, "phaseDone")));
        // An open loop's schedule starts a moment ahead, so all workers have it; a closed loop's
        // clients start as soon as the command arrives.
        const startUs = clock() + (openLoop ? OPEN_LOOP_START_DELAY_MS * 1000 : 0);
        const schedule = openLoop ? { schedule: openLoop, startUs } : null;
        const mix: MixOrder | null = command.mix
          ? {
              ...command.mix,
              deadlineUs:
                command.mix.workload.durationMs === undefined
                  ? null
                  : startUs + command.mix.workload.durationMs * 1000,
              warmupEndUs: startUs + command.mix.workload.warmupMs * 1000,
            }
          : null;
        for (const worker of workers) {
          worker.postMessage({ ...command, nextIndex, openLoop: schedule, mix });
        }
        await Promise.race([done, failure]);
        report();
        const dispensed = Math.min(command.count, Atomics.load(new Int32Array(nextIndex), 0));
        return {
          phases: [...collectors.values()].map((collector) => ({
            summary: collector.summary(),
            histograms: collector.encodedHistograms(),
          })),
          dispensed,
        };
      } finally {
        clearInterval(ticker);
        for (const worker of workers) worker.off("message", onMessage);
        for (const collector of collectors.values()) collector.destroy();
      }
    },
    async terminate() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
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
