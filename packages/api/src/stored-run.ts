import { z } from "zod";
import { codeCountsSchema } from "./code-counts.ts";
import {
  LoopSchema,
  OperationSchema,
  PercentileIntervalSchema,
  RunSummarySchema,
} from "./results.ts";
import { ImportSourceSchema, ImportToolSchema } from "./imported-run.ts";
import { RequestModeSchema, RunPointParamsSchema, RunSpecSchema } from "./run-spec.ts";

/** What a run folder holds on disk: its metadata, histograms and the index of all runs. */

export const RUN_FOLDER_SCHEMA_VERSION = 3;

/** Run ids are folder names: no separators, no leading dot (dot-names are the store's own). */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * running: being written (or its process died: the store reports that as interrupted);
 * complete: every point ran; stopped: a stop ended it early and what was measured is kept;
 * serverLost: the server stopped answering mid-run (summary.json says where and what was not
 * run); interrupted: its process died before it ended; failed: an error ended it.
 */
export const RunStatusSchema = z.enum([
  "running",
  "complete",
  "stopped",
  "serverLost",
  "interrupted",
  "failed",
]);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const RunEnvironmentSchema = z.object({
  taillabVersion: z.string(),
  /** e.g. "linux 6.1.0 x64" */
  os: z.string(),
  cpuModel: z.string(),
  cpuCount: z.number().int().min(1),
  memoryBytes: z.number().int().min(0),
  node: z.string(),
  /** The endpoint's Server header, when known. */
  server: z.string().nullable(),
});
export type RunEnvironment = z.infer<typeof RunEnvironmentSchema>;

/**
 * What removing a run's objects, open multipart uploads and workload buckets
 * (`taillab-<runId>-w…`) did: at the run's end, or by `taillab cleanup` / the app's button
 * later. What it could not remove is counted with the error codes that kept it, so a person
 * knows what is left and can retry.
 */
export const RunCleanupSchema = z.object({
  at: z.iso.datetime(),
  removed: z.object({
    objects: z.number().int().min(0),
    uploads: z.number().int().min(0),
    buckets: z.number().int().min(0),
  }),
  /** Objects under the run's key prefix it could not delete. */
  objectsLeft: z.number().int().min(0),
  /** Open multipart uploads under the prefix it could not abort. */
  uploadsLeft: z.number().int().min(0),
  /** Workload buckets it could not delete, by name. */
  bucketsLeft: z.array(z.string()),
  /** What could not even be listed, so whether any of it is left is not known. */
  unchecked: z.array(z.enum(["objects", "uploads", "buckets"])),
  /** Why: each removal that failed, by its S3 or transport error code. */
  errorsByCode: codeCountsSchema(1),
  /**
   * The run's bucket no longer exists (NoSuchBucket): nothing of the run is left in it. Absent
   * in cleanups kept before it was said.
   */
  bucketGone: z.boolean().optional(),
});
export type RunCleanup = z.infer<typeof RunCleanupSchema>;

/** Nothing is left: every object, upload and bucket went. */
export function cleanupLeftNothing(cleanup: RunCleanup): boolean {
  return (
    cleanup.objectsLeft === 0 &&
    cleanup.uploadsLeft === 0 &&
    cleanup.bucketsLeft.length === 0 &&
    cleanup.unchecked.length === 0
  );
}

/** run.json: written when a run starts, rewritten (atomically) when renamed, tagged or annotated. */
export const RunMetaSchema = z.object({
  schemaVersion: z.literal(RUN_FOLDER_SCHEMA_VERSION),
  id: z.string(),
  name: z.string(),
  tags: z.array(z.string()),
  notes: z.string(),
  createdAt: z.iso.datetime(),
  /** No secrets: credentials are references. */
  spec: RunSpecSchema,
  environment: RunEnvironmentSchema,
  /** Key prefix of the run (`<prefix>/<runId>/`): records store key numbers after it. */
  keyPrefix: z.string(),
  status: RunStatusSchema,
  /** Why a failed run failed. */
  error: z.string().nullable(),
  /**
   * The last cleanup of what the run left on the server; null when none ran (a run killed before
   * its end, one that kept its objects, or one written before cleanups were recorded).
   */
  cleanup: RunCleanupSchema.nullable().default(null),
  /**
   * Records the run wrote to records.log, counted when it ended (complete, stopped, failed): a
   * log damaged later says how many it lost. Null while it runs, for a run that died, and in
   * runs written before it was counted.
   */
  recordsWritten: z.number().int().min(0).nullable().default(null),
  /** Present for a run read from another tool's result file by `taillab runs import`. */
  imported: ImportSourceSchema.optional(),
});
export type RunMeta = z.infer<typeof RunMetaSchema>;

/**
 * Merged HDR histograms (µs, encoded with core's encodeHistogram) of one operation of one point,
 * one per figure of the phase summary: latency, client queue, connect, service, upload, TTFB and
 * transfer. The others than latency are null in runs recorded before they were measured.
 */
export const PhaseHistogramsSchema = z.object({
  pointIndex: z.number().int().min(0),
  op: OperationSchema,
  latency: z.string(),
  clientQueue: z.string().nullable(),
  connect: z.string().nullable(),
  service: z.string().nullable(),
  upload: z.string().nullable(),
  ttfb: z.string().nullable(),
  transfer: z.string().nullable(),
});
export type PhaseHistograms = z.infer<typeof PhaseHistogramsSchema>;

/**
 * Successful requests answered in one interval of the run clock (a second), as HdrHistogram's
 * interval logs keep them: the percentiles over time of a phase. Null percentiles: none answered.
 */
export const IntervalStatsSchema = z.object({
  /** Start of the interval, ms since the run started. */
  startMs: z.number().min(0),
  lengthMs: z.number().min(0),
  requests: z.number().int().min(0),
  errors: z.number().int().min(0),
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  p999Ms: z.number().nullable(),
  maxMs: z.number().nullable(),
  /**
   * p50, p99 and p99.9's 95 % intervals over the interval's successful requests (core's
   * percentileRankInterval, as for a phase's percentiles; a figure rests on few requests when
   * core's restsOnFew says so of `requests`). Absent when none answered, and in figures made
   * before they were kept.
   */
  percentileIntervals: z
    .object({
      p50: PercentileIntervalSchema,
      p99: PercentileIntervalSchema,
      p999: PercentileIntervalSchema,
    })
    .optional(),
  /**
   * Backup attempts sent by the requests answered in the interval (hedged, tied, adaptive): the
   * cost over time. 0 in runs recorded before it was kept; absent in their live events.
   */
  backups: z.number().int().min(0).optional(),
  /**
   * Bytes moved by the interval's successful requests, as a phase's `bytes`. Absent where not
   * recorded (runs stored before it was kept): not known, never 0.
   */
  bytes: z.number().int().min(0).optional(),
  /** The interval's failed requests by error code, as a phase's `errorsByCode`; absent as `bytes`. */
  errorsByCode: codeCountsSchema(1).optional(),
});
export type IntervalStats = z.infer<typeof IntervalStatsSchema>;

/** The intervals of one operation of one point, in time order. */
export const PhaseIntervalsSchema = z.object({
  pointIndex: z.number().int().min(0),
  op: OperationSchema,
  intervals: z.array(IntervalStatsSchema),
});
export type PhaseIntervals = z.infer<typeof PhaseIntervalsSchema>;

export const HeadlineSchema = z.object({
  op: OperationSchema,
  /** Null when no request of the phase succeeded. */
  p50Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  p999Ms: z.number().nullable(),
  opsPerSec: z.number(),
  errors: z.number().int().min(0),
});
export type Headline = z.infer<typeof HeadlineSchema>;

/** The lowest and the highest of one figure over a run's points. */
export const FigureSpanSchema = z.object({ low: z.number(), high: z.number() });
export type FigureSpan = z.infer<typeof FigureSpanSchema>;

/**
 * One operation over every point of a run that measured it: each figure's lowest and highest
 * (percentiles of different points are never merged or averaged; a single point's are equal).
 */
export const HeadlineSpanSchema = z.object({
  op: OperationSchema,
  /** Points with a successful request of the operation (the spans cover these). */
  points: z.number().int().min(0),
  /** Null when no request of the operation succeeded in any point. */
  p50Ms: FigureSpanSchema.nullable(),
  p99Ms: FigureSpanSchema.nullable(),
  p999Ms: FigureSpanSchema.nullable(),
  opsPerSec: FigureSpanSchema,
  /** Over every point. */
  errors: z.number().int().min(0),
});
export type HeadlineSpan = z.infer<typeof HeadlineSpanSchema>;

/**
 * What is wrong with a run folder, as the store found it: files it could not read (and what it
 * used instead), and the end of the records log it had to skip.
 */
export const RunDamageSchema = z.object({
  /** One line each, naming the file: `summary.json is not valid JSON (…); …rebuilt from the records`. */
  problems: z.array(z.string()),
  /** Bytes of records.log after its last readable frame (cut short or damaged): their records are lost. */
  skippedLogBytes: z.number().int().min(0),
  /** Records lost with them, when the run counted what it wrote (run.json's recordsWritten). */
  lostRecords: z.number().int().min(0).nullable().default(null),
});
export type RunDamage = z.infer<typeof RunDamageSchema>;

/** One line of the runs index: enough to list, search and pick runs without opening them. */
export const RunIndexEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  tags: z.array(z.string()),
  notes: z.string(),
  createdAt: z.iso.datetime(),
  status: RunStatusSchema,
  mode: RequestModeSchema,
  loop: LoopSchema,
  points: z.array(RunPointParamsSchema),
  /**
   * Points that ran to the end: fewer than `points` when the run was stopped; null for a run that
   * never wrote its summary (interrupted, failed) until it is opened.
   */
  pointsFinished: z.number().int().min(0).nullable(),
  /**
   * Points that ran, to the end or until a stop cut them short: a run stopped in its second
   * point ran 2 and finished 1. Null as pointsFinished is.
   */
  pointsRun: z.number().int().min(0).nullable().default(null),
  recordCount: z.number().int().min(0),
  /** Per phase of the first point (a sweep's other points are in its summary). */
  headline: z.array(HeadlineSchema),
  /**
   * Per phase over every point: what a sweep's row says of the whole sweep. Required, so an
   * index written before it was kept fails to parse and is rebuilt from the folders.
   */
  headlineSpan: z.array(HeadlineSpanSchema),
  /** The first endpoint's URL; null for the embedded testbed (and a folder that cannot be read). */
  endpoint: z.string().nullable(),
  /** Null for a sound folder. A folder whose run.json cannot be read is listed too, by its id. */
  damage: RunDamageSchema.nullable().default(null),
  /** The benchmark an imported run was read from (run.json's `imported`); null for TailLab's own. */
  importedFrom: ImportToolSchema.nullable().default(null),
});
export type RunIndexEntry = z.infer<typeof RunIndexEntrySchema>;

/** An exported run in one JSON file (`taillab report --format json`), importable elsewhere. */
export const RunExportSchema = z.object({
  schemaVersion: z.literal(RUN_FOLDER_SCHEMA_VERSION),
  kind: z.literal("taillab-run"),
  meta: RunMetaSchema,
  summary: RunSummarySchema,
  histograms: z.array(PhaseHistogramsSchema),
  /**
   * The run's interval histograms as an HdrHistogram interval log (core's interval-log.ts);
   * empty in exports from before percentiles over time were recorded.
   */
  intervalLog: z.string().default(""),
  /**
   * The same percentiles over time as read from `intervalLog` (core's intervalsFromLog), with
   * their intervals, for readers without an HdrHistogram decoder; an import reads `intervalLog`.
   * Absent in exports from before they were written out.
   */
  intervals: z.array(PhaseIntervalsSchema).optional(),
});
export type RunExport = z.infer<typeof RunExportSchema>;
