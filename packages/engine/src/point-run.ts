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
} from "@taillab/api";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
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
  PhaseCommand,
  WorkerInit,
  WorkerMessage,
} from "./worker-protocol.ts";

export interface PointRunOptions {
  /** One per replica of the service; attempts are spread over them. */
  targets: Omit<TransportTarget, "maxConnections">[];
  transportKind: TransportKind;
  params: RunPointParams;
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
  stopped: boolean;
}

const OPERATION_OF_PHASE: Record<Phase, Operation> = {
  write: "PUT",
  read: "GET",
  cleanup: "DELETE",
};
const PROGRESS_INTERVAL_MS = 100;
const WORKER_URL = new URL("./client-worker.ts", import.meta.url);

/**
 * One run point, phase by phase (write, read, cleanup), spread over worker threads so this thread
 * does no request work. Closed loop (s3bench): `clients` loops share `samples` requests. Open
 * loop: requests leave on the schedule, `rate × duration` of them (or `samples`), and reads cycle
 * over the written keys. Cleanup is always a closed loop over the written keys, never hedged.
 */
export async function runPoint(options: PointRunOptions): Promise<PointRunResult> {
  const { params } = options;
  const pool = await startWorkers(options);
  const stop = () => pool.broadcast({ type: "stop" });
  options.signal?.addEventListener("abort", stop);
  const phases: PhaseSummary[] = [];
  let writtenKeyCount = 0;
  let deletedKeyCount = 0;
  try {
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
      };
      options.onPhaseStart?.(op);
      const { summary, histograms, dispensed } = await pool.runPhase(command, openLoop, options);
      options.onPhaseDone?.(summary, histograms);
      phases.push(summary);
      if (phase === "write") writtenKeyCount = dispensed;
      if (phase === "cleanup") deletedKeyCount = dispensed;
    }
  } finally {
    options.signal?.removeEventListener("abort", stop);
    await pool.terminate();
  }
  return {
    phases,
    writtenKeyCount,
    deletedKeyCount,
    stopped: options.signal?.aborted ?? false,
  };
}

/** Workers start a phase's schedule together, a moment after the command is posted. */
const OPEN_LOOP_START_DELAY_MS = 20;

/** A phase as the coordinator decides it; the shared counter and schedule start are added later. */
type PhaseOrder = Omit<PhaseCommand, "nextIndex" | "openLoop">;

interface WorkerPool {
  broadcast(message: CoordinatorMessage): void;
  runPhase(
    command: PhaseOrder,
    openLoop: OpenLoop | null,
    options: PointRunOptions,
  ): Promise<{ summary: PhaseSummary; histograms: EncodedPhaseHistograms; dispensed: number }>;
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

/** Splits clients as evenly as possible: 10 clients on 4 workers → 3, 3, 2, 2. */
export function splitClients(clients: number, workers: number): number[] {
  const count = Math.max(1, Math.min(workers, clients));
  return Array.from(
    { length: count },
    (_, index) => Math.floor(clients / count) + (index < clients % count ? 1 : 0),
  );
}

async function startWorkers(options: PointRunOptions): Promise<WorkerPool> {
  const content = createSharedContentBytes(options.params.objectSizeBytes);
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
      const collector = new PhaseCollector(
        {
          op: command.op,
          total: command.count,
          openLoop: openLoop !== null,
          hedgeBudgetPct: command.allowBackups ? hedge.budgetPercent : null,
        },
        Date.now(),
      );
      const onMessage = (message: WorkerMessage) => {
        if (message.type === "report") {
          collector.addReport(message);
          if (message.records.length > 0) onRecords?.(message.records);
        } else if (message.type === "phaseDone") {
          collector.addPhaseDone(message);
        }
      };
      const ticker = setInterval(
        () => onProgress?.(collector.progress(Date.now())),
        PROGRESS_INTERVAL_MS,
      );
      try {
        for (const worker of workers) worker.on("message", onMessage);
        const done = Promise.all(workers.map((worker) => nextMessage(worker, "phaseDone")));
        const schedule = openLoop
          ? { schedule: openLoop, startUs: clock() + OPEN_LOOP_START_DELAY_MS * 1000 }
          : null;
        for (const worker of workers) {
          worker.postMessage({ ...command, nextIndex, openLoop: schedule });
        }
        await Promise.race([done, failure]);
        onProgress?.(collector.progress(Date.now()));
        const dispensed = Math.min(command.count, Atomics.load(new Int32Array(nextIndex), 0));
        return {
          summary: collector.summary(),
          histograms: collector.encodedHistograms(),
          dispensed,
        };
      } finally {
        clearInterval(ticker);
        for (const worker of workers) worker.off("message", onMessage);
        collector.destroy();
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
