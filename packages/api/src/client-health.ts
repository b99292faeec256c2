import { z } from "zod";

/**
 * Whether TailLab's own client kept up while it measured: the figures of a span (a second or a
 * phase) and the verdict core's clientVerdict draws from them. Absent in runs recorded before it
 * existed, and in a summary rebuilt from records (the records do not hold it).
 */
export const CLIENT_HEALTH_VERSION = 1;

/** Why the client was the bottleneck (core's CLIENT_LIMITS says when each applies). */
export const ClientBottleneckSchema = z.enum([
  /** TailLab's client threads used nearly all the cores the process may use. */
  "cpu",
  /** A worker thread was busy nearly all the time: it holds too many clients. */
  "clients-per-worker",
  /** The workers could not run while requests were in flight, for a material share of latency. */
  "event-loop-delay",
  /** Open loop: requests left later than their schedule said. */
  "schedule-behind",
]);
export type ClientBottleneck = z.infer<typeof ClientBottleneckSchema>;

export const ClientVerdictSchema = z.object({
  keptUp: z.boolean(),
  /** Empty when it kept up. */
  reasons: z.array(ClientBottleneckSchema),
});
export type ClientVerdict = z.infer<typeof ClientVerdictSchema>;

/** The client's figures over a span; shares are 0 … 1. */
export const ClientFiguresSchema = z.object({
  /** The client threads' CPU time over the span's wall time, in cores. */
  cpuCores: z.number().min(0),
  /** The cores the process may use (os.availableParallelism). */
  availableCores: z.number().int().min(1),
  /** The busiest worker thread's CPU time over wall time (1 = a whole core). */
  busiestWorkerCpu: z.number().min(0),
  /** The worst worker's 99th percentile of event-loop delay (monitorEventLoopDelay), ms. */
  eventLoopDelayP99Ms: z.number().min(0),
  /** Of the answered requests' latency, the share their worker could not run (client stall). */
  stallShare: z.number().min(0),
  /** Requests started (open loop: claimed from the schedule). */
  starts: z.number().int().min(0),
  /** Open loop: started later than core's MISSED_START_TOLERANCE_MS after their schedule. */
  missedStarts: z.number().int().min(0),
  /** How far behind its schedule the open loop was at worst, ms (0 in a closed loop). */
  behindMs: z.number().min(0),
  /** Live lab: arrivals dropped because the backlog was past its bound. */
  shed: z.number().int().min(0),
});
export type ClientFigures = z.infer<typeof ClientFiguresSchema>;

/** One second of the run clock: the client's figures and verdict. */
export const ClientSecondSchema = ClientFiguresSchema.extend({
  startMs: z.number(),
  verdict: ClientVerdictSchema,
});
export type ClientSecond = z.infer<typeof ClientSecondSchema>;

/** A phase's client health, beside its figures. */
export const ClientHealthSchema = z.object({
  version: z.literal(CLIENT_HEALTH_VERSION),
  verdict: ClientVerdictSchema,
  figures: ClientFiguresSchema,
  workers: z.number().int().min(1),
  clientsPerWorker: z.number().min(0),
  /**
   * Mean client stall of the slowest 1 % and 0.1 % (the tail breakdown's requests), ms: the
   * part of their "server" time during which their worker could not run.
   */
  tailStallMs: z.object({ p99: z.number().min(0), p999: z.number().min(0) }).nullable(),
  /** Open loop: every arrival was sent, however late ("kept"), or a bound shed some ("shed"). */
  arrivals: z.enum(["kept", "shed"]).nullable(),
  seconds: z.array(ClientSecondSchema),
  /** A distributed run's merge: the shards whose client was the bottleneck (absent otherwise). */
  boundShards: z.array(z.number().int().min(0)).optional(),
});
export type ClientHealth = z.infer<typeof ClientHealthSchema>;

/**
 * What a closed-loop phase leaves out (core's coordinatedOmissionNote): "strong" when its
 * completions show it, and the open-loop equivalent just under its throughput.
 */
export const CoordinatedOmissionNoteSchema = z.object({
  strength: z.enum(["note", "strong"]),
  /** Longest stretch with no completion while every client was busy, ms. */
  gapMs: z.number().min(0),
  /** The slowest request over the p99. */
  maxOverP99: z.number().min(0),
  /** Requests per second of the open-loop equivalent. */
  openLoopRateHz: z.number().min(1),
  /** The `taillab run` flags that run it, e.g. `--rate 900/s`. */
  flags: z.string(),
});
export type CoordinatedOmission = z.infer<typeof CoordinatedOmissionNoteSchema>;
