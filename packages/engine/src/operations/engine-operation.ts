import type { Operation, Workload } from "@taillab/api";
import type { PlannedRequest } from "@taillab/core";
import type { LogicalResult, SendAttempt } from "../hedged-tied-executor.ts";
import type { ObjectContent } from "../object-content.ts";
import type { FastWire } from "../transport/fast-transport.ts";
import type { ObjectTransport } from "../transport/object-transport.ts";
import type { SdkWire } from "../transport/sdk-transport.ts";

/**
 * One S3 operation as the engine sends it: how each transport builds its request and reads the
 * answer (errors included), and how a worker turns a planned request into one ready to send.
 * Each operation's module implements this once; operations/registry.ts lists them, and the
 * transports and the client worker take everything from there.
 *
 * `fast` and `sdk` are called once per transport: the methods they return are the transport's
 * own, so a request goes from the caller to its operation's code with nothing between.
 */
export interface EngineOperation<
  Name extends Operation = Operation,
  Methods extends object = object,
> {
  name: Name;
  fast(wire: FastWire): Methods;
  sdk(wire: SdkWire): Methods;
  /** A mixed workload's request of this operation, as core's planner planned it. */
  mixRequest(
    worker: WorkerRequests,
    workload: Workload,
    planned: PlannedRequest,
    origin: RequestOrigin,
  ): BuiltRequest;
  /** A one-operation phase's request (write, read, cleanup); absent when no phase sends it. */
  phaseRequest?(worker: WorkerRequests, keyNumber: number): BuiltRequest;
}

/** A planned request made ready to send: its key, and how one attempt of it is sent. */
export interface BuiltRequest {
  key: string;
  send: SendAttempt;
}

/** Where one logical request was meant to start, who sent it, and whether it is measured. */
export interface RequestOrigin {
  intendedStartUs: number;
  client: number;
  measured: boolean;
}

/** What a client worker lends its operations for one phase to build their requests with. */
export interface WorkerRequests {
  keyOf(keyNumber: number): string;
  /** The transport to a replica now (a live session's retune may change it). */
  transportFor(replica: number): ObjectTransport;
  content: ObjectContent;
  /** GETs check the body's size and MD5. */
  verify: boolean;
  /** Every key of the run starts with it. */
  keyPrefix: string;
  /** The phase's signal: a stop, or the phase's end. */
  signal: AbortSignal;
  /** The name of this worker's nth bucket of the run (`taillab-<run>-w…`). */
  bucketNameOf(bucketNumber: number): string;
  /** Counts a request besides the planned one (each part of a multipart upload). */
  recordRequest(op: Operation, key: string, origin: RequestOrigin, result: LogicalResult): void;
}

/** What an operation takes from a 2xx answer: its own fields, and an error or bytes if any. */
export interface Reading<T> {
  fields: T;
  error?: string | null;
  bytes?: number;
}

/** The fields of an operation whose outcome has none of its own. */
export const NO_FIELDS = {};
export const nothing = (): Reading<object> => ({ fields: NO_FIELDS });
