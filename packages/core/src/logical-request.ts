import { ABORTED_ERROR, CANCELLED_ERROR, type Operation } from "@taillab/api";

/** One attempt's timeline (µs, run clock) and outcome: RequestRecord's fields the figures use. */
export interface AttemptTimeline {
  /** The endpoint (replica) it went to. */
  replica: number;
  readyUs: number;
  sentUs: number;
  headersUs: number;
  firstByteUs: number;
  endUs: number;
  bytes: number;
  error: string | null;
  /**
   * The connect time (TCP + TLS) of the new connection this attempt was the first on: it waited
   * for it between ready and sent. Absent on a connection already open.
   */
  connectUs?: number;
  /** When its request body was on the wire (sent ≤ bodySent ≤ headers); absent: at sent. */
  bodySentUs?: number;
  /**
   * The connect time (TCP + TLS) of a new connection this attempt was the first on, opened to
   * replace one closed by a cancelled attempt. Seen by the engine only; records do not keep it.
   */
  reconnectUs?: number;
}

/**
 * A logical request: its attempts in the order they were sent (one, or a first attempt and its
 * backups) and the one whose answer it used. This is what the engine folds as requests finish
 * and what the results store rebuilds from consecutive records, so both count the same way.
 */
export interface LogicalRequest {
  op: Operation;
  intendedStartUs: number;
  /** Index of the run's phase (over points and repetitions). */
  phaseIndex: number;
  /** The closed-loop client or open-loop dispatcher that sent it. */
  client: number;
  measured: boolean;
  attempts: readonly AttemptTimeline[];
  /** Index into attempts of the answer used, or null when every attempt failed. */
  winner: number | null;
}

/**
 * Where one successful request's latency went; the parts add up to endUs − intendedStartUs.
 * clientQueue: intended start → first attempt sent, without its connect; connect: the first
 * attempt's wait for a new connection (TCP + TLS); hedgeWait: → the winning backup sent (0 when
 * the first attempt won); upload: the winner's request body on the wire (sent → body sent);
 * server: → the winner's first body byte, without its upload; transfer: → done (the download).
 */
export interface LatencyParts {
  latencyUs: number;
  clientQueueUs: number;
  connectUs: number;
  hedgeWaitUs: number;
  uploadUs: number;
  serverUs: number;
  transferUs: number;
}

/**
 * The connect an attempt waited for, within its ready → sent: a connection opened for an earlier
 * request may have been connecting before this one was ready.
 */
function connectWithinUs(attempt: AttemptTimeline): number {
  return Math.max(0, Math.min(attempt.connectUs ?? 0, attempt.sentUs - attempt.readyUs));
}

/** The attempt's upload, within its sent → first byte (a server may answer early). */
function uploadWithinUs(attempt: AttemptTimeline): number {
  const bodySentUs = attempt.bodySentUs ?? attempt.sentUs;
  return Math.max(0, Math.min(bodySentUs, attempt.firstByteUs) - attempt.sentUs);
}

export function latencyParts(request: LogicalRequest): LatencyParts | null {
  const first = request.attempts[0];
  const winner = request.winner === null ? undefined : request.attempts[request.winner];
  if (!first || !winner) return null;
  const connectUs = connectWithinUs(first);
  const clientQueueUs = first.sentUs - request.intendedStartUs - connectUs;
  const hedgeWaitUs = winner.sentUs - first.sentUs;
  const uploadUs = uploadWithinUs(winner);
  const serverUs = winner.firstByteUs - winner.sentUs - uploadUs;
  const transferUs = winner.endUs - winner.firstByteUs;
  return {
    latencyUs: clientQueueUs + connectUs + hedgeWaitUs + uploadUs + serverUs + transferUs,
    clientQueueUs,
    connectUs,
    hedgeWaitUs,
    uploadUs,
    serverUs,
    transferUs,
  };
}

/**
 * Whether the attempt was written on a connection: undici stamps `sent` as it writes the
 * request, and an attempt refused or cancelled before that ends with sent = end (nothing crossed
 * the wire, no server saw it). An answer, or a failure after the write, comes at least a
 * microsecond later.
 */
export function wentOnWire(attempt: Pick<AttemptTimeline, "sentUs" | "endUs">): boolean {
  return attempt.sentUs < attempt.endUs;
}

export function wasCancelled(attempt: AttemptTimeline): boolean {
  return attempt.error === CANCELLED_ERROR;
}

/** A request that a stop cut off before any attempt answered: it neither succeeded nor failed. */
export function wasCutOff(request: LogicalRequest): boolean {
  return request.winner === null && request.attempts.some(({ error }) => error === ABORTED_ERROR);
}
