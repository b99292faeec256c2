import type {
  Operation,
  Phase,
  PhaseSummary,
  RequestRecord,
  RunPointParams,
  TransportKind,
} from "@taillab/api";
import { Worker } from "node:worker_threads";
import { createSharedContentBytes } from "./object-content.ts";
import { PhaseCollector, type PhaseProgress } from "./phase-collector.ts";
import type { TransportTarget } from "./transport/index.ts";
import type { CoordinatorMessage, WorkerInit, WorkerMessage } from "./worker-protocol.ts";

export interface ClosedLoopPointOptions {
  target: Omit<TransportTarget, "maxConnections">;
  transportKind: TransportKind;
  params: RunPointParams;
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
  onPhaseDone?: (summary: PhaseSummary) => void;
}

export interface ClosedLoopPointResult {
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
 * s3bench's closed loop for one run point: `clients` loops share `samples` requests, phase by
 * phase (write, read, cleanup), spread over worker threads so this thread does no request work.
 */
export async function runClosedLoopPoint(
  options: ClosedLoopPointOptions,
): Promise<ClosedLoopPointResult> {
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
      const count = phase === "write" ? params.samples : writtenKeyCount;
      options.onPhaseStart?.(op);
      const { summary, dispensed } = await pool.runPhase(op, options.firstKey, count, options);
      options.onPhaseDone?.(summary);
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

interface WorkerPool {
  broadcast(message: CoordinatorMessage): void;
  runPhase(
    op: Operation,
    firstKey: number,
    count: number,
    options: ClosedLoopPointOptions,
  ): Promise<{ summary: PhaseSummary; dispensed: number }>;
  terminate(): Promise<void>;
}

/** Splits clients as evenly as possible: 10 clients on 4 workers → 3, 3, 2, 2. */
export function splitClients(clients: number, workers: number): number[] {
  const count = Math.max(1, Math.min(workers, clients));
  return Array.from(
    { length: count },
    (_, index) => Math.floor(clients / count) + (index < clients % count ? 1 : 0),
  );
}

async function startWorkers(options: ClosedLoopPointOptions): Promise<WorkerPool> {
  const content = createSharedContentBytes(options.params.objectSizeBytes);
  const workers = splitClients(options.params.clients, options.workers).map((clients) => {
    const init: WorkerInit = {
      target: { ...options.target, maxConnections: clients },
      transportKind: options.transportKind,
      clients,
      runStartEpochMs: options.runStartEpochMs,
      keyPrefix: options.keyPrefix,
      content,
      verify: options.verify,
    };
    return new Worker(WORKER_URL, { workerData: init });
  });
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
    async runPhase(op, firstKey, count, { onProgress, onRecords }) {
      const nextIndex = new SharedArrayBuffer(4);
      const collector = new PhaseCollector(op, count, Date.now());
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
        for (const worker of workers) {
          worker.postMessage({ type: "phase", op, firstKey, count, nextIndex });
        }
        await Promise.race([done, failure]);
        onProgress?.(collector.progress(Date.now()));
        const dispensed = Math.min(count, Atomics.load(new Int32Array(nextIndex), 0));
        return { summary: collector.summary(), dispensed };
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
