import type {
  HedgeOptions,
  OpenLoop,
  Operation,
  ReplicaChoice,
  RequestMode,
  RequestRecord,
  TransportKind,
  Workload,
} from "@taillab/api";
import type { TransportTarget } from "./transport/index.ts";

/** Messages between the run coordinator (main thread) and its client workers. */

export interface WorkerInit {
  /** One per replica; a single endpoint is a list of one. */
  targets: TransportTarget[];
  transportKind: TransportKind;
  /** Closed loop: concurrent client loops in this worker. Open loop: its connection count. */
  clients: number;
  /** Position among the workers, so open-loop schedules of different workers differ. */
  workerIndex: number;
  workerCount: number;
  runStartEpochMs: number;
  /** Keys are `${keyPrefix}${keyNumber}`. */
  keyPrefix: string;
  content: SharedArrayBuffer;
  /** The point's one object size, or a distribution each key's size is drawn from. */
  objectSizeBytes: number;
  objectSizes: { distribution: string; seed: number } | null;
  verify: boolean;
  mode: RequestMode;
  hedge: HedgeOptions;
  replicaChoice: ReplicaChoice;
  /** Stream per-attempt records to the coordinator; off when nobody keeps them. */
  collectRecords: boolean;
}

export interface PhaseCommand {
  type: "phase";
  op: Operation;
  /** Logical requests in the phase, shared by all clients of all workers. */
  count: number;
  /** Request i uses key number firstKey + (i mod keyCount). */
  firstKey: number;
  keyCount: number;
  /** Int32Array[1] handing out the next request index; Atomics.add makes it a shared queue. */
  nextIndex: SharedArrayBuffer;
  /** DELETE and cleanup are never hedged: a backup delete is not harmless. */
  allowBackups: boolean;
  /** Open loop: the run's schedule, and the run time (µs) at which the phase's schedule starts. */
  openLoop: { schedule: OpenLoop; startUs: number } | null;
  /** A mixed workload: each request draws its operation; null for a one-operation phase. */
  mix: MixOrder | null;
}

/**
 * Prepared objects are key numbers [firstKey, firstKey + keyCount); new objects (PUT, COPY
 * target, multipart) take numbers from `newKeyFirst` on, handed out by the `newKeys` counter.
 */
export interface MixOrder {
  workload: Workload;
  newKeyFirst: number;
  /** Int32Array[1]: how many new keys were handed out. */
  newKeys: SharedArrayBuffer;
  /** No request starts after this run time (µs); null: stop by count only. */
  deadlineUs: number | null;
  /** Requests scheduled before this run time (µs) run but are not counted. */
  warmupEndUs: number;
  /** BigInt64Array[1]: payload bytes moved by answered requests, for a totalBytes stop. */
  movedBytes: SharedArrayBuffer;
}

export type CoordinatorMessage = PhaseCommand | { type: "stop" };

export interface HedgeCounters {
  attempts: number;
  aborted: number;
  wastedBytes: number;
  wonByBackup: number;
  /** Logical requests that armed a backup timer, and the sum of their delays. */
  armed: number;
  delaySumMs: number;
}

/** What a worker measured since its last report; histograms are HDR deltas (encoded). */
export interface WorkerReport {
  type: "report";
  op: Operation;
  records: RequestRecord[];
  latencyHistogram: string;
  ttfbHistogram: string;
  /** Open loop only. */
  serviceHistogram: string | null;
  errorsByCode: Record<string, number>;
  hedge: HedgeCounters;
  bytes: number;
  /** Logical requests counted in the summary: answered or failed, not cut short by a stop. */
  requests: number;
  missedStarts: number;
}

export interface PhaseDone {
  type: "phaseDone";
  /** Per operation: earliest (intended) request start and latest request end (run µs). */
  spans: { op: Operation; firstStartUs: number | null; lastEndUs: number | null }[];
}

export type WorkerMessage =
  { type: "ready" } | WorkerReport | PhaseDone | { type: "failed"; message: string };
