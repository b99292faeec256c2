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
 * clientQueue: intended start → first attempt sent; hedgeWait: → the winning backup sent (0 when
 * the first attempt won); server: → the winner's first body byte; transfer: → done.
 */
export interface LatencyParts {
  latencyUs: number;
  clientQueueUs: number;
  hedgeWaitUs: number;
  serverUs: number;
  transferUs: number;
}

export function latencyParts(request: LogicalRequest): LatencyParts | null {
  const first = request.attempts[0];
  const winner = request.winner === null ? undefined : request.attempts[request.winner];
  if (!first || !winner) return null;
  const clientQueueUs = first.sentUs - request.intendedStartUs;
  const hedgeWaitUs = winner.sentUs - first.sentUs;
  const serverUs = winner.firstByteUs - winner.sentUs;
  const transferUs = winner.endUs - winner.firstByteUs;
  return {
    latencyUs: clientQueueUs + hedgeWaitUs + serverUs + transferUs,
    clientQueueUs,
    hedgeWaitUs,
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
