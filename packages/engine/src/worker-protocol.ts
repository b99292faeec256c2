import type {
  HedgeOptions,
  Operation,
  ReplicaChoice,
  RequestMode,
  TransportKind,
  Workload,
} from "@taillab/api";
import type { PhaseAccountDelta } from "@taillab/core";
import type { ClientProbeReport } from "./client-probe.ts";
import type { RecordBatch } from "./record-batch.ts";
import type { ScheduleBuffers } from "./open-loop-schedule.ts";
import type { ServerLoss } from "./server-health.ts";
import type { TransportTarget } from "./transport/index.ts";

/** Messages between the run coordinator (main thread) and its client workers. */

export interface WorkerInit {
  /** One per replica; a single endpoint is a list of one. */
  targets: TransportTarget[];
  transportKind: TransportKind;
  /** Closed loop: concurrent client loops in this worker. */
  clients: number;
  /**
   * The run-wide number of this worker's first client (records name clients by it); an open-loop
   * worker dispatches as that client.
   */
  firstClient: number;
  /** Position among the workers (names the buckets a workload creates). */
  workerIndex: number;
  /** The run's start on the process's monotonic clock (run-clock.ts). */
  runStartMonotonicMs: number;
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
  /**
   * Open loop: requests this worker keeps outstanding at most (its clients: one per connection).
   * Beyond it, released requests wait in the schedule (late, and counted so).
   */
  maxOutstanding: number;
  /**
   * Open loop of a live lab: an arrival claimed more than this after its intended start is shed
   * (dropped and counted), so the backlog stays bounded; null keeps every arrival.
   */
  shedBacklogAfterMs: number | null;
}

export interface PhaseCommand {
  type: "phase";
  /** The phase's operation (a mix's first; each request draws its own). */
  op: Operation;
  /** The run's phase number, over points and repetitions (records carry it). */
  phaseIndex: number;
  /** False for the objects a workload prepares: sent and recorded, not in the figures. */
  measured: boolean;
  /** Logical requests in the phase, shared by all clients of all workers. */
  count: number;
  /** Request i uses key number firstKey + (i mod keyCount). */
  firstKey: number;
  keyCount: number;
  /** Closed loop: Int32Array[1] handing out the next request index (Atomics.add). */
  nextIndex: SharedArrayBuffer;
  /** DELETE and cleanup are never hedged: a backup delete is not harmless. */
  allowBackups: boolean;
  /** Open loop: the one schedule every worker claims requests from; null: closed loop. */
  schedule: ScheduleBuffers | null;
  /** A mixed workload: each request draws its operation; null for a one-operation phase. */
  mix: MixOrder | null;
  /** Whether the server still answers, shared by the phase's workers (server-health.ts). */
  health: SharedArrayBuffer;
}

/**
 * Prepared objects are key numbers [firstKey, firstKey + keyCount); new objects (the writes'
 * keys) take numbers from `newKeyFirst` on, handed out by the `newKeys` counter.
 */
export interface MixOrder {
  workload: Workload;
  newKeyFirst: number;
  /** Int32Array[1]: how many new keys were handed out. */
  newKeys: SharedArrayBuffer;
  /** No request starts after this run time (µs); null: stop by count only. */
  deadlineUs: number | null;
  /** Requests meant to start before this run time (µs) run but are not measured. */
  warmupEndUs: number;
  /** BigInt64Array[1]: payload bytes moved by answered requests, for a totalBytes stop. */
  movedBytes: SharedArrayBuffer;
}

/** A live session's change: the next requests use this mode, these options and replicas. */
export interface RetuneCommand {
  type: "retune";
  mode: RequestMode;
  hedge: HedgeOptions;
  targets: TransportTarget[];
}

export type CoordinatorMessage = PhaseCommand | RetuneCommand | { type: "stop" };

/** What a worker counted since its last report, per operation, and its records. */
export interface WorkerReport {
  type: "report";
  deltas: { op: Operation; delta: PhaseAccountDelta }[];
  /** Null when there are none. */
  records: RecordBatch | null;
  /** The worker's own health since its last report. */
  health: ClientProbeReport;
}

export type WorkerMessage =
  | { type: "ready" }
  | WorkerReport
  | { type: "phaseDone" }
  /** The last retune is in use, and every request started before it is done. */
  | { type: "retuned" }
  | { type: "failed"; message: string }
  /** This worker found the server lost: every worker ends the phase (see server-health.ts). */
  | { type: "serverLost"; loss: ServerLoss };
