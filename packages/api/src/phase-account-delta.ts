import { z } from "zod";
import { codeCountsSchema } from "./code-counts.ts";

/**
 * A phase's accounting as plain data (core's PhaseAccount: `takeDelta()`, `snapshot()`,
 * `merge()`): what a worker thread hands the coordinator and what a shard of a distributed run
 * uploads, so accounts merge exactly across threads and processes. Times are microseconds of the
 * run clock of the process that measured them.
 */

/** The latency figures of a phase, each with its own histogram. */
export const TALLY_NAMES = [
  "latency",
  "clientQueue",
  "connect",
  "service",
  "upload",
  "ttfb",
  "transfer",
] as const;
export type TallyName = (typeof TALLY_NAMES)[number];

/**
 * Durations of one kind (µs): an HDR histogram in HdrHistogram's standard compressed encoding
 * (base64), with the exact count, sum, minimum and maximum beside it (a decoded histogram rounds
 * its extremes to their buckets).
 */
export const EncodedTallySchema = z.object({
  histogram: z.string(),
  count: z.number().int().min(0),
  sumUs: z.number(),
  minUs: z.number(),
  maxUs: z.number(),
});
export type EncodedTally = z.infer<typeof EncodedTallySchema>;

export const HedgeCountsSchema = z.object({
  attempts: z.number().int().min(0),
  backups: z.number().int().min(0),
  /** Σ over backups of (backup ready − first attempt ready). */
  backupDelayUs: z.number(),
  cancelled: z.number().int().min(0),
  wastedBytes: z.number().int().min(0),
  wonByBackup: z.number().int().min(0),
  sameReplica: z.number().int().min(0),
  /**
   * Backups launched but refused or cancelled before they were written on a connection: not in
   * `backups` (nor in attempts, the delay or sameReplica). Absent from an older engine's deltas.
   */
  notSent: z.number().int().min(0).default(0),
  /**
   * New connections opened to replace one closed by cancelling an attempt, and Σ their connect
   * time (TCP + TLS), paid by the request that waited for them. Absent from an older engine's.
   */
  reconnects: z.number().int().min(0).default(0),
  reconnectUs: z.number().min(0).default(0),
});
export type HedgeCounts = z.infer<typeof HedgeCountsSchema>;

/**
 * count, latencyUs, clientQueueUs, connectUs, hedgeWaitUs, uploadUs, serverUs, transferUs: sums
 * per tail bucket.
 */
export const TailBucketSumsSchema = z.tuple([
  z.number(),
  z.number(),
  z.number(),
  z.number(),
  z.number(),
  z.number(),
  z.number(),
  z.number(),
]);
export type TailBucketSums = z.infer<typeof TailBucketSumsSchema>;

/**
 * What one second of a phase moved and how its requests failed (core's IntervalCounter): its
 * successful requests' bytes and its failed requests by error code, counted as a phase's `bytes`
 * and `errorsByCode` are, so a phase's seconds add up to the phase. Also the JSON of the interval
 * log's `#[TailLab counts v1]` lines (core's interval-log.ts).
 */
export const IntervalCountsSchema = z.object({
  bytes: z.number().int().min(0),
  errorsByCode: codeCountsSchema(0),
});
export type IntervalCounts = z.infer<typeof IntervalCountsSchema>;

export const PhaseAccountDeltaSchema = z.object({
  requests: z.number().int().min(0),
  /** Requests cut off in flight by a stop (PhaseSummary.cutOff); absent when none was. */
  cutOff: z.number().int().min(0).optional(),
  errorsByCode: codeCountsSchema(0),
  bytes: z.number().int().min(0),
  missedStarts: z.number().int().min(0),
  /** PhaseSummary.negativeIntervals; absent from an older engine's deltas. */
  negativeIntervals: z.number().int().min(0).default(0),
  tallies: z.partialRecord(z.enum(TALLY_NAMES), EncodedTallySchema),
  hedge: HedgeCountsSchema,
  /** lanes: client, first intended start, last end, … flattened. */
  segments: z.array(
    z.object({
      phaseIndex: z.number().int().min(0),
      firstIntendedUs: z.number(),
      lastEndUs: z.number(),
      lanes: z.array(z.number()),
    }),
  ),
  /** bucket, answered requests, bytes, … flattened; a bucket is core's STEADY_BUCKET_MS of answers. */
  steady: z.array(z.number()),
  /** Interval index (whole seconds of the run clock) and its tallies. */
  intervals: z.array(
    z.object({
      index: z.number().int(),
      latency: EncodedTallySchema.nullable(),
      failures: EncodedTallySchema.nullable(),
      /** Each backup's wait after its request's first attempt; absent from an older engine's. */
      backups: EncodedTallySchema.nullable().optional(),
      /** Bytes and errors by code; absent from an older engine's (then not known). */
      counts: IntervalCountsSchema.optional(),
    }),
  ),
  /** Tail bucket and its sums (core's tail-breakdown.ts). */
  tail: z.array(z.tuple([z.number().int(), TailBucketSumsSchema])),
});
export type PhaseAccountDelta = z.infer<typeof PhaseAccountDeltaSchema>;

/**
 * A phase's newest seconds (its interval tallies from `fromIndex` on), for a live view that must
 * stay small however long the phase runs: a second before `fromIndex` is left out, not empty.
 */
export const RecentIntervalsSchema = z.object({
  fromIndex: z.number().int(),
  intervals: PhaseAccountDeltaSchema.shape.intervals,
});
export type RecentIntervals = z.infer<typeof RecentIntervalsSchema>;
