import { z } from "zod";
import { RequestModeSchema, RunPointParamsSchema, RunSpecSchema } from "./run-spec.ts";

export const RESULTS_SCHEMA_VERSION = 1;

/** Object and bucket operations. Appended, never reordered: the results store keeps codes. */
export const OperationSchema = z.enum([
  "PUT",
  "GET",
  "DELETE",
  "HEAD",
  "COPY",
  "LIST",
  "MULTIPART",
  "CREATE_BUCKET",
  "DELETE_BUCKET",
  "LIST_BUCKETS",
  "DELETE_OBJECTS",
  "UPLOAD_PART",
]);
export type Operation = z.infer<typeof OperationSchema>;

/**
 * One request as the client saw it. Times are microseconds since the run started, taken in the
 * thread that sent the request. intendedStartUs is when the schedule wanted it sent (closed loop:
 * equal to startUs). status 0 means no HTTP response (connection error, abort).
 */
export const RequestRecordSchema = z.object({
  op: OperationSchema,
  key: z.string(),
  bytes: z.number().int().min(0),
  intendedStartUs: z.number().int(),
  startUs: z.number().int(),
  firstByteUs: z.number().int(),
  endUs: z.number().int(),
  status: z.number().int().min(0),
  /** S3 error code (NoSuchKey, SlowDown…), a transport code (ECONNRESET…), or null on success. */
  error: z.string().nullable(),
  /** 1 for the first attempt of a logical request; hedged and tied requests add more. */
  attempt: z.number().int().min(1),
  /** Index of the endpoint (replica) the attempt went to. */
  replica: z.number().int().min(0),
  /** The attempt whose answer the logical request used; the others were cancelled or lost. */
  winner: z.boolean(),
});
export type RequestRecord = z.infer<typeof RequestRecordSchema>;
export const REQUEST_RECORD_FIELDS = Object.keys(
  RequestRecordSchema.shape,
) as (keyof RequestRecord)[];

/** Milliseconds, from an HDR histogram of microseconds (3 significant digits). */
export const LatencyStatsSchema = z.object({
  min: z.number(),
  p25: z.number(),
  p50: z.number(),
  p75: z.number(),
  p90: z.number(),
  p99: z.number(),
  p999: z.number(),
  p9999: z.number(),
  max: z.number(),
  mean: z.number(),
  stdev: z.number(),
});
export type LatencyStats = z.infer<typeof LatencyStatsSchema>;
export const PERCENTILE_LEVELS = {
  p25: 25,
  p50: 50,
  p75: 75,
  p90: 90,
  p99: 99,
  p999: 99.9,
  p9999: 99.99,
} as const;

/** What backup requests cost, per phase (hedged, tied and adaptive modes). */
export const HedgeSummarySchema = z.object({
  /** Mean delay after which a backup was due, over the requests that armed one; null if none. */
  delayMs: z.number().nullable(),
  budgetPct: z.number(),
  /** Attempts sent, first attempts included. */
  attempts: z.number().int().min(0),
  /** Backups sent, as a % of logical requests. */
  extraPct: z.number().min(0),
  /** Attempts cancelled because another attempt of the same request answered first. */
  aborted: z.number().int().min(0),
  /** Payload bytes sent or received by attempts that lost. */
  wastedBytes: z.number().int().min(0),
  /** Logical requests answered by a backup rather than the first attempt. */
  wonByBackup: z.number().int().min(0),
});
export type HedgeSummary = z.infer<typeof HedgeSummarySchema>;

export const PhaseSummarySchema = z.object({
  op: OperationSchema,
  /** Requests that got an answer or failed; requests cut short by a stop are not counted. */
  requests: z.number().int().min(0),
  errors: z.number().int().min(0),
  errorsByCode: z.record(z.string(), z.number().int().min(1)),
  /** Payload bytes of successful requests. */
  bytes: z.number().int().min(0),
  durationMs: z.number().min(0),
  /** MiB/s, as s3bench prints "MB/s". */
  throughputMBps: z.number().min(0),
  opsPerSec: z.number().min(0),
  /** Successful requests only, so fast failures do not flatter the tail. */
  latencyMs: LatencyStatsSchema,
  ttfbMs: LatencyStatsSchema,
  /**
   * Open loop only: latency from the actual send of the first attempt, beside latencyMs (from the
   * scheduled start). The gap between the two is the queueing a closed loop would have hidden.
   */
  serviceMs: LatencyStatsSchema.optional(),
  /** Open loop only: requests sent more than MISSED_START_TOLERANCE_MS after their scheduled time. */
  missedStarts: z.number().int().min(0).optional(),
  hedge: HedgeSummarySchema.optional(),
});
export const MISSED_START_TOLERANCE_MS = 2;
export type PhaseSummary = z.infer<typeof PhaseSummarySchema>;

/** A figure over k repetitions: the trimmed mean (one max and one min dropped) from k ≥ 3. */
export const RepetitionStatsSchema = z.object({
  runs: z.number().int().min(1),
  method: z.enum(["trimmed-mean", "mean"]),
  value: z.number(),
  kept: z.array(z.number()),
  dropped: z.array(z.number()),
  min: z.number(),
  max: z.number(),
  stdev: z.number(),
  note: z.string().nullable(),
});

export const PointSummarySchema = z.object({
  params: RunPointParamsSchema,
  /** With repetitions: all of them as one phase per operation (histograms merged). */
  phases: z.array(PhaseSummarySchema),
  /** `repeat` > 1: each repetition's own phases, and the paper's trimmed means across them. */
  repetitions: z.array(z.object({ phases: z.array(PhaseSummarySchema) })).optional(),
  repetitionStats: z
    .array(
      z.object({
        op: OperationSchema,
        throughputMBps: RepetitionStatsSchema,
        opsPerSec: RepetitionStatsSchema,
        errors: RepetitionStatsSchema,
      }),
    )
    .optional(),
});
export type PointSummary = z.infer<typeof PointSummarySchema>;

/** What each embedded-testbed replica saw: proof that cancelled attempts really were cancelled. */
export const TestbedReplicaStatsSchema = z.object({
  url: z.string(),
  received: z.number().int().min(0),
  completed: z.number().int().min(0),
  /** Requests the client abandoned before the response was complete. */
  aborted: z.number().int().min(0),
});
export type TestbedReplicaStats = z.infer<typeof TestbedReplicaStatsSchema>;

export const RunSummarySchema = z.object({
  schemaVersion: z.literal(RESULTS_SCHEMA_VERSION),
  runId: z.string(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  /** The spec as run, with every default filled in; it holds credential references only. */
  spec: RunSpecSchema,
  /** Endpoint URLs as run (the embedded testbed's port is only known at run time). */
  endpointUrls: z.array(z.string()),
  /** The endpoint's Server header, when it sent one. */
  server: z.string().nullable(),
  mode: RequestModeSchema,
  loop: z.enum(["closed", "open"]),
  /** True when a stop signal ended the run early; points and phases hold what was measured. */
  stopped: z.boolean(),
  points: z.array(PointSummarySchema),
  /** Present when the run used the embedded testbed. */
  testbed: z.array(TestbedReplicaStatsSchema).optional(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

export const RunProgressSchema = z.object({
  runId: z.string(),
  pointIndex: z.number().int().min(0),
  pointCount: z.number().int().min(1),
  params: RunPointParamsSchema,
  op: OperationSchema,
  done: z.number().int().min(0),
  total: z.number().int().min(0),
  errors: z.number().int().min(0),
  opsPerSec: z.number().min(0),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  elapsedMs: z.number().min(0),
});
export type RunProgress = z.infer<typeof RunProgressSchema>;
