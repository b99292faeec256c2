import type { Operation, RequestRecord, TransportKind } from "@taillab/api";
import type { TransportTarget } from "./transport/index.ts";

/** Messages between the run coordinator (main thread) and its client workers. */

export interface WorkerInit {
  target: TransportTarget;
  transportKind: TransportKind;
  /** Concurrent client loops in this worker. */
  clients: number;
  runStartEpochMs: number;
  /** Keys are `${keyPrefix}${keyNumber}`. */
  keyPrefix: string;
  content: SharedArrayBuffer;
  verify: boolean;
}

export interface PhaseCommand {
  type: "phase";
  op: Operation;
  /** Key numbers [firstKey, firstKey + count) are shared by all clients of all workers. */
  firstKey: number;
  count: number;
  /** Int32Array[1] handing out the next index; Atomics.add makes it a shared work queue. */
  nextIndex: SharedArrayBuffer;
}

export type CoordinatorMessage = PhaseCommand | { type: "stop" };

/** What a worker measured since its last report; histograms are HDR deltas (encoded). */
export interface WorkerReport {
  type: "report";
  records: RequestRecord[];
  latencyHistogram: string;
  ttfbHistogram: string;
  errorsByCode: Record<string, number>;
  bytes: number;
  /** Requests counted in the summary: answered or failed, not cut short by a stop. */
  requests: number;
}

export interface PhaseDone {
  type: "phaseDone";
  /** Earliest request start and latest request end of this worker in the phase (run µs). */
  firstStartUs: number | null;
  lastEndUs: number | null;
}

export type WorkerMessage =
  { type: "ready" } | WorkerReport | PhaseDone | { type: "failed"; message: string };
