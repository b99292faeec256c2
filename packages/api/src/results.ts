import { z } from "zod";
import { codeCountsSchema } from "./code-counts.ts";
import { ClientHealthSchema, CoordinatedOmissionNoteSchema } from "./client-health.ts";
import { ToolLatencyMsSchema } from "./imported-run.ts";
import { RunMarkerSchema } from "./live-tuning.ts";
import { OperationSchema } from "./operations/registry.ts";
import { RequestModeSchema, RunPointParamsSchema, RunSpecSchema } from "./run-spec.ts";

export const RESULTS_SCHEMA_VERSION = 2;

export { OperationSchema, type Operation } from "./operations/registry.ts";

/** An attempt cancelled because another attempt of the same request answered first. */
export const CANCELLED_ERROR = "Cancelled";
/**
 * An attempt cut short by a stop of the run (or the phase's early end): it measured nothing, but
 * may have reached the server, so it is recorded and its request counted apart (cutOff).
 */
export const ABORTED_ERROR = "Aborted";
/**
 * An attempt the client gave up on after the run's request timeout (not S3's own
 * "RequestTimeout", which is the server giving up on a client that sent too slowly).
 */
export const TIMEOUT_ERROR = "ClientTimeout";
/**
 * An answer longer than any S3 answer TailLab parses should be (the engine's ANSWER_LIMIT_BYTES):
 * the client stopped reading it and dropped the connection.
 */
export const RESPONSE_TOO_LARGE_ERROR = "ResponseTooLarge";

/**
 * One attempt of a request as the client saw it, with its timeline. Times are microseconds
 * since the run started, taken in the thread that sent the request:
 *
 *   intendedStartUs ≤ readyUs ≤ sentUs ≤ headersUs ≤ firstByteUs ≤ endUs
 *
 * - intendedStartUs: when the request was meant to start: its instant on the open-loop schedule,
 *   or when a closed-loop client took it. The same for every attempt of a request.
 * - readyUs: when this attempt left the client's own queue and was handed to the transport
 *   (a backup: when it was launched).
 * - sentUs: when its request went out on a connection (undici wrote its headers): signing,
 *   waiting for a free connection and connecting come before it.
 * - headersUs: when the response headers arrived.
 * - firstByteUs: when the first byte of the response body arrived (headersUs for an empty body).
 * - endUs: the body read (and verified), or the failure.
 * A step that never happened (no connection, no response) takes the time of the next one that
 * did, so an attempt refused at connect has sentUs = headersUs = firstByteUs = endUs.
 * status 0 means no HTTP response (connection error, cancel, abort).
 */
export const RequestRecordSchema = z.object({
  op: OperationSchema,
  key: z.string(),
  /**
   * Payload bytes the attempt moved: an upload's body once it was sent, a download's body bytes
   * received (an error document is not payload). An attempt cancelled on the wire: the bytes its connection moved both ways while it was on it, headers included
   * (its connection is closed, and what had crossed the wire is the cost).
   */
  bytes: z.number().int().min(0),
  intendedStartUs: z.number().int(),
  readyUs: z.number().int(),
  sentUs: z.number().int(),
  headersUs: z.number().int(),
  firstByteUs: z.number().int(),
  endUs: z.number().int(),
  /**
   * The connect time (TCP + TLS) of the new connection this attempt was the first on, which it
   * waited for between ready and sent; 0 on a connection already open. Null in records written
   * before it was recorded.
   */
  connectUs: z.number().int().min(0).nullable(),
  /**
   * When the whole request, body included, was on the wire (sent ≤ bodySent ≤ headers): a PUT's
   * upload is sent → bodySent; sentUs when it never was. Null in records written before it was
   * recorded.
   */
  bodySentUs: z.number().int().nullable(),
  status: z.number().int().min(0),
  /**
   * S3 error code (NoSuchKey, SlowDown…), a transport code (ECONNRESET…), "ClientTimeout" (no
   * end within the request timeout), "Cancelled" (a twin answered first), "Aborted" (the run was
   * stopped), or null on success.
   */
  error: z.string().nullable(),
  /** 1 for the first attempt of a logical request; hedged and tied requests add more. */
  attempt: z.number().int().min(1),
  /** Index of the endpoint (replica) the attempt went to. */
  replica: z.number().int().min(0),
  /** The attempt whose answer the logical request used; the others were cancelled or lost. */
  winner: z.boolean(),
  /** Which phase of the run, counted from 0 over points and repetitions: a summary's segment. */
  phaseIndex: z.number().int().min(0),
  /**
   * The closed-loop client (0 … clients − 1) or the open-loop dispatcher that sent it (named by
   * its worker's first client); a shard of a distributed run numbers its clients after the
   * shards before it.
   */
  client: z.number().int().min(0),
  /** False for requests that are not part of the figures: prepared objects and warm-up. */
  measured: z.boolean(),
});
export type RequestRecord = z.infer<typeof RequestRecordSchema>;
export const REQUEST_RECORD_FIELDS = Object.keys(
  RequestRecordSchema.shape,
) as (keyof RequestRecord)[];

export const PERCENTILE_LEVELS = {
  p25: 25,
  p50: 50,
  p75: 75,
  p90: 90,
  p99: 99,
  p999: 99.9,
  p9999: 99.99,
} as const;
export type PercentileName = keyof typeof PERCENTILE_LEVELS;
export const PercentileNameSchema = z.enum(
  Object.keys(PERCENTILE_LEVELS) as [PercentileName, ...PercentileName[]],
);

/**
 * A percentile's confidence interval, ms: the values of the order statistics that bound it
 * (core's percentileRankInterval). null where the requests do not bound it: too few below it for
 * a lower bound, or too few above it for an upper one (the true figure may be past the slowest).
 */
export const PercentileIntervalSchema = z.object({
  lo: z.number().nullable(),
  hi: z.number().nullable(),
});
export type PercentileInterval = z.infer<typeof PercentileIntervalSchema>;

/** How far each percentile of a set of durations can be trusted. */
export const PercentileIntervalsSchema = z.object({
  /** 0.95: the probability each interval holds the true percentile, whatever the distribution. */
  confidence: z.number().gt(0).lt(1),
  /** The durations the percentiles are of. */
  count: z.number().int().min(1),
  /** The histogram's own precision (±%), beside the statistical interval. */
  precisionPct: z.number().min(0),
  byLevel: z.record(PercentileNameSchema, PercentileIntervalSchema),
});
export type PercentileIntervals = z.infer<typeof PercentileIntervalsSchema>;

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
  /** Absent in runs recorded before intervals were kept. */
  intervals: PercentileIntervalsSchema.optional(),
});
export type LatencyStats = z.infer<typeof LatencyStatsSchema>;

/** What backup requests cost, per phase (hedged, tied and adaptive modes). */
export const HedgeSummarySchema = z.object({
  /**
   * Mean wait between a request's first attempt and its backup leaving, over the backups sent;
   * null when none was sent.
   */
  delayMs: z.number().nullable(),
  budgetPct: z.number(),
  /** Attempts sent, first attempts included. */
  attempts: z.number().int().min(0),
  /**
   * Backups written on a connection, as a % of logical requests: the extra requests servers
   * received. Runs recorded before `notSent` was counted also counted backups that never left.
   */
  extraPct: z.number().min(0),
  /**
   * Backups launched but refused or cancelled before they were written on a connection (the
   * first attempt answered meanwhile): not extra requests, and not paid from the budget.
   * Absent in runs recorded before it was counted.
   */
  notSent: z.number().int().min(0).optional(),
  /** Attempts cancelled because another attempt of the same request answered first. */
  cancelled: z.number().int().min(0),
  /**
   * Bytes sent or received by the attempts that lost (their records' `bytes`): all that crossed
   * the wire both ways for one cancelled on the wire, the answer's body for one that lost with
   * an error answer.
   */
  wastedBytes: z.number().int().min(0),
  /**
   * Cancelling an attempt on the wire closes its connection: the connections opened to replace
   * them, and their mean connect time (TCP + TLS), which the request that waited for each paid.
   * Absent when there were none, in runs recorded before they were counted, and in summaries
   * rebuilt from records (which keep no connections).
   */
  reconnects: z.number().int().min(1).optional(),
  reconnectMeanMs: z.number().min(0).optional(),
  /** Logical requests answered by a backup rather than the first attempt. */
  wonByBackup: z.number().int().min(0),
  /** Backups that went to the replica their first attempt was on (a service of one replica). */
  sameReplica: z.number().int().min(0),
});
export type HedgeSummary = z.infer<typeof HedgeSummarySchema>;

/**
 * Throughput over the window where every client of the phase was busy (warp's figure): from when
 * the last client sent its first request to when the first client got its last answer, so the
 * ramp-up and the drain do not dilute it. Counted in whole buckets of answers (core's
 * STEADY_BUCKET_MS).
 */
export const SteadyThroughputSchema = z.object({
  /** The window, ms since the run started (of the first and last repetition with several). */
  fromMs: z.number(),
  toMs: z.number(),
  /** The window's length (summed over repetitions). */
  durationMs: z.number().min(0),
  requests: z.number().int().min(0),
  bytes: z.number().int().min(0),
  throughputMBps: z.number().min(0),
  opsPerSec: z.number().min(0),
});
export type SteadyThroughput = z.infer<typeof SteadyThroughputSchema>;

/**
 * How a phase run until steady ended (a spec's untilSteady; core's steady-state.ts): stopped
 * early because its percentile was steady, or at its samples or duration, its maximum.
 */
export const SteadyOutcomeSchema = z.object({
  /** The rule it was run with. */
  percentile: z.number().gt(0).lt(100),
  tolerancePercent: z.number().gt(0).max(100),
  holdMs: z.number().gt(0),
  /** true: it ended early, steady; false: it ran to its maximum (or was stopped). */
  steady: z.boolean(),
  /** Requests answered when it ended (or when it was found steady), and its time so far. */
  requests: z.number().int().min(0),
  elapsedMs: z.number().min(0),
  /** The percentile's 95 % interval's wider side, ±% of the figure; null: open-ended. */
  withinPercent: z.number().min(0).nullable(),
});
export type SteadyOutcome = z.infer<typeof SteadyOutcomeSchema>;

/**
 * Where the time of the slowest requests went. The parts add up to the mean latency:
 * clientQueueMs (intended start → the first attempt sent, without its connect), connectMs (the
 * first attempt's wait for a new connection: TCP + TLS), hedgeWaitMs (→ the winning backup sent;
 * 0 when the first attempt won), uploadMs (the winner's request body on the wire), serverMs (→ its
 * first body byte, without the upload) and transferMs (→ done: the download).
 */
export const TailShareSchema = z.object({
  /**
   * The lowest latency of the breakdown bucket (~4 % wide) where the share's last request by rank
   * falls. Runs recorded before the share was chosen by rank held every request of that bucket,
   * more than the share when many shared it.
   */
  fromMs: z.number(),
  requests: z.number().int().min(0),
  meanMs: z.number(),
  clientQueueMs: z.number(),
  /**
   * Absent in runs recorded before connects and uploads were (their client queue holds the
   * connect, and their server the upload).
   */
  connectMs: z.number().optional(),
  hedgeWaitMs: z.number(),
  uploadMs: z.number().optional(),
  serverMs: z.number(),
  transferMs: z.number(),
});
export type TailShare = z.infer<typeof TailShareSchema>;

/** The slowest 1 % and 0.1 % of a phase's successful requests. */
export const TailBreakdownSchema = z.object({ p99: TailShareSchema, p999: TailShareSchema });
export type TailBreakdown = z.infer<typeof TailBreakdownSchema>;

export const LoopSchema = z.enum(["closed", "open"]);
export type Loop = z.infer<typeof LoopSchema>;

/**
 * One operation of one phase. Figures of time come from the measured requests' timelines; the
 * latency stats are null when no request succeeded (there is no latency to show), and in runs
 * recorded before a figure existed.
 */
export const PhaseSummarySchema = z.object({
  op: OperationSchema,
  /** Open loop: requests left on a schedule; closed loop: each client waited for its answer. */
  loop: LoopSchema,
  /** Logical requests that got an answer or failed; requests cut short by a stop are not counted. */
  requests: z.number().int().min(0),
  /**
   * Logical requests a stop (or the phase's early end) cut off in flight: never in requests,
   * errors or latency, but counted and recorded, as they may have reached the server (a PUT may
   * have left its object). Absent when none was, and in runs recorded before it was counted.
   */
  cutOff: z.number().int().min(1).optional(),
  errors: z.number().int().min(0),
  errorsByCode: codeCountsSchema(1),
  /** Payload bytes of successful requests. */
  bytes: z.number().int().min(0),
  /** From the first request's intended start to the last answer (s3bench's duration). */
  durationMs: z.number().min(0),
  /** MiB/s over durationMs, as s3bench prints "MB/s". */
  throughputMBps: z.number().min(0),
  opsPerSec: z.number().min(0),
  /** Over the window where every client was busy; null when there was none. */
  steady: SteadyThroughputSchema.nullable(),
  /** Intended start → done, successful requests only, so fast failures do not flatter the tail. */
  latencyMs: LatencyStatsSchema.nullable(),
  /**
   * Intended start → the first attempt sent, without its connect: scheduling, signing, waiting
   * for a free connection.
   */
  clientQueueMs: LatencyStatsSchema.nullable(),
  /**
   * The first attempt's wait for a new connection (TCP + TLS); 0 on one already open. Absent in
   * runs recorded before it was (their client queue holds it).
   */
  connectMs: LatencyStatsSchema.nullable().optional(),
  /** The answering attempt: sent → done (what a closed loop calls latency, without the queue). */
  serviceMs: LatencyStatsSchema.nullable(),
  /**
   * The answering attempt's request body on the wire (sent → body sent): a PUT's upload. Absent
   * in runs recorded before it was (their TTFB holds it).
   */
  uploadMs: LatencyStatsSchema.nullable().optional(),
  /** The answering attempt: sent → first body byte, without the upload (the wait for the server). */
  ttfbMs: LatencyStatsSchema.nullable(),
  /** The answering attempt: first body byte → done (the download). */
  transferMs: LatencyStatsSchema.nullable(),
  /** Open loop: requests that left later than core's MISSED_START_TOLERANCE_MS after schedule. */
  missedStarts: z.number().int().min(0),
  /**
   * Parts of requests' timelines that came out negative (a later step stamped before an earlier
   * one: clocks that disagree), each recorded as 1 µs; absent when none did. A notice says it.
   */
  negativeIntervals: z.number().int().min(0).optional(),
  tail: TailBreakdownSchema.nullable(),
  hedge: HedgeSummarySchema.optional(),
  /**
   * Closed loop: the longest stretch (ms, in steady buckets) with no request completing while
   * every client was busy; absent for an open loop and in runs recorded before it was kept.
   */
  completionGapMs: z.number().min(0).optional(),
  /** Closed loop: what it leaves out; absent for an open loop and in older runs. */
  coordinatedOmission: CoordinatedOmissionNoteSchema.optional(),
  /** Whether TailLab's own client kept up (engine runs; absent when rebuilt from records). */
  client: ClientHealthSchema.optional(),
  /**
   * An imported run's latency as its tool printed it, where its file keeps no per-request data
   * (latencyMs is then null): only the figures the tool printed.
   */
  toolLatencyMs: ToolLatencyMsSchema.optional(),
  /**
   * Run until steady: how each repetition's phase ended (one entry without --repeat); absent
   * otherwise, and when rebuilt from records.
   */
  untilSteady: z.array(SteadyOutcomeSchema).min(1).optional(),
});
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
  /** False for the point a stop cut short: its figures cover what was measured. */
  finished: z.boolean(),
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
  /**
   * Requests the replica began to serve (past its queue, not dropped as a tied twin): the work
   * it did. Absent in runs recorded before it was counted.
   */
  served: z.number().int().min(0).optional(),
  /** Tied copies dropped from its queue because the twin started elsewhere (tied-server). */
  tiesDropped: z.number().int().min(0).optional(),
});
export type TestbedReplicaStats = z.infer<typeof TestbedReplicaStatsSchema>;

/** A shard's clock against the storage server's Date header. */
export const ClockCheckSchema = z.object({
  /** Server minus local clock, ms. */
  offsetMs: z.number(),
  /** The offset is within offsetMs ± boundMs (the Date header has whole seconds). */
  boundMs: z.number().min(0),
});
export type ClockCheck = z.infer<typeof ClockCheckSchema>;

/** How a shard of a distributed run ended (serverLost: its server stopped answering). */
export const ShardStatusSchema = z.enum(["complete", "stopped", "serverLost", "failed"]);
export type ShardStatus = z.infer<typeof ShardStatusSchema>;

/**
 * One shard in a merged run: its own figures beside the merged ones (a slow shard shows), or why
 * it is not in them.
 */
export const ShardBreakdownSchema = z.object({
  index: z.number().int().min(0),
  /** missing: no result arrived (never ready, aborted at the barrier, or killed mid-run). */
  status: z.enum([...ShardStatusSchema.options, "missing"]),
  /** One line for a person: why a shard is missing or failed, or null. */
  problem: z.string().nullable(),
  /** Its actual start against the common T0, ms (its own clock). */
  startOffsetMs: z.number().nullable(),
  clock: ClockCheckSchema.nullable(),
  /**
   * A shard that started and left no result (killed mid-run): the objects found under its own
   * key prefix (`<prefix>/<run>-<index>/`) at the merge, which its cleanup never removed
   * (`taillab cleanup RUN` does). Absent for the others and when none were found.
   */
  objectsLeft: z.number().int().min(1).optional(),
  /** Its share of each point and the figures it measured. */
  points: z.array(z.object({ params: RunPointParamsSchema, phases: z.array(PhaseSummarySchema) })),
});
export type ShardBreakdown = z.infer<typeof ShardBreakdownSchema>;

/** What a merged run adds to its summary: how its shards started and which are in it. */
export const DistributedSummarySchema = z.object({
  shardCount: z.number().int().min(1),
  /** The common start the shards derived, ISO; null when none passed the barrier. */
  t0: z.iso.datetime().nullable(),
  /** Latest minus earliest actual start of the shards that started, ms. */
  startSpreadMs: z.number().min(0).nullable(),
  /** Largest minus smallest clock offset against the storage server, ms. */
  clockSkewMs: z.number().min(0).nullable(),
  /**
   * The skew is within clockSkewMs ± this: the Date header has whole seconds, so one sample
   * bounds a clock to about ± 0.5 s.
   */
  clockSkewBoundMs: z.number().min(0).nullable(),
  /**
   * Two shards whose clocks were surely more than core's CLOCK_LIMIT_MS apart (the furthest
   * behind the server's, then the furthest ahead), and by how much (± boundMs): each placed its
   * measured window by its own clock, so when they started and were busy together is not known;
   * startSpreadMs and every merged phase's steady window are null then. Absent when not.
   */
  clocksApart: z
    .object({
      shards: z.tuple([z.number().int().min(0), z.number().int().min(0)]),
      apartMs: z.number().min(0),
      boundMs: z.number().min(0),
    })
    .optional(),
  /** Shards whose figures are merged. */
  merged: z.array(z.number().int().min(0)),
  shards: z.array(ShardBreakdownSchema),
});
export type DistributedSummary = z.infer<typeof DistributedSummarySchema>;

/** A phase that ended early because the server stopped answering (run clock, ms). */
export const ServerLossSchema = z.object({
  pointIndex: z.number().int().min(0),
  /**
   * The phase's operation, or "mix" for a mixed workload ("prepare" for the writing of its
   * objects before the mix).
   */
  phase: z.string(),
  /** When the first request of the silence was sent. */
  at: z.iso.datetime(),
  /** The same moment, ms into the run. */
  sinceMs: z.number().min(0),
  silentMs: z.number().min(0),
  failures: z.number().int().min(0),
  lastError: z.string(),
});
export type ServerLoss = z.infer<typeof ServerLossSchema>;

/** A phase the run did not start because its server had stopped answering. */
export const NotRunPhaseSchema = z.object({
  pointIndex: z.number().int().min(0),
  /** The phase's operation, or "mix" for a mixed workload. */
  phase: z.string(),
  /**
   * `repeat` > 1: the repetition (from 0) of the point the server went in that did not run this
   * phase; absent for a point none of whose repetitions ran.
   */
  repetition: z.number().int().min(0).optional(),
});
export type NotRunPhase = z.infer<typeof NotRunPhaseSchema>;

/**
 * The server stopped answering and did not answer the probe after it: the run ended there.
 * `at` is when it stopped answering (the first request of the silence was sent).
 */
export const ServerGoneSchema = z.object({
  at: z.iso.datetime(),
  /** The same moment, ms into the run. */
  sinceMs: z.number().min(0),
  /** Why the probe got no answer (ClientTimeout at its deadline, ECONNREFUSED…). */
  probeError: z.string(),
  notRun: z.array(NotRunPhaseSchema),
});
export type ServerGone = z.infer<typeof ServerGoneSchema>;

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
  loop: LoopSchema,
  /**
   * complete: every point ran; stopped: a stop ended it early, keeping what was measured;
   * serverLost: the server stopped answering, which ended a phase early (serverLosses) and, when
   * it did not answer again, the run (serverGone).
   */
  status: z.enum(["complete", "stopped", "serverLost"]),
  /** Points the spec has; `points` holds those that started. */
  pointCount: z.number().int().min(1),
  points: z.array(PointSummarySchema),
  /** Present when the run used the embedded testbed. */
  testbed: z.array(TestbedReplicaStatsSchema).optional(),
  /**
   * A live session's knob changes in time order, the first being its start; absent for other
   * runs (and for a live session rebuilt from its records after its process died).
   */
  markers: z.array(RunMarkerSchema).optional(),
  /** Present when the run was merged from the shards of a distributed run. */
  distributed: DistributedSummarySchema.optional(),
  /** Phases the server's silence ended early, in run order; absent when none. */
  serverLosses: z.array(ServerLossSchema).optional(),
  /** Present when the server did not answer again and the run ended there. */
  serverGone: ServerGoneSchema.optional(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

export const RunProgressSchema = z.object({
  runId: z.string(),
  pointIndex: z.number().int().min(0),
  pointCount: z.number().int().min(1),
  params: RunPointParamsSchema,
  op: OperationSchema,
  done: z.number().int().min(0),
  /** 0 for an open loop until stopped: no total is known. */
  total: z.number().int().min(0),
  errors: z.number().int().min(0),
  opsPerSec: z.number().min(0),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  /** Time in the phase. */
  elapsedMs: z.number().min(0),
  /**
   * Time since the run started, on the clock its intervals' startMs and markers use (the phases
   * before this one and the time between them included); absent from hosts that do not send it.
   */
  runElapsedMs: z.number().min(0).optional(),
});
export type RunProgress = z.infer<typeof RunProgressSchema>;
