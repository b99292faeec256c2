import { z } from "zod";
import {
  EncodedTallySchema,
  PhaseAccountDeltaSchema,
  RecentIntervalsSchema,
} from "./phase-account-delta.ts";
import {
  ClockCheckSchema,
  LoopSchema,
  OperationSchema,
  PhaseSummarySchema,
  RequestRecordSchema,
  RunProgressSchema,
  ServerGoneSchema,
  ServerLossSchema,
  ShardStatusSchema,
} from "./results.ts";
import { RunPointParamsSchema, RunSpecSchema } from "./run-spec.ts";
import { RunEnvironmentSchema } from "./stored-run.ts";

/**
 * A distributed run: N shards of one spec, each a `taillab run --shard I/N`, meet in a folder of
 * the bucket they measure (`s3://BUCKET/PREFIX/`, the run's folder; its last path segment is the
 * run id) and leave their results there. What each shard writes under that folder:
 *
 *   ready/I, ready-at/I@MS, abort/I   the start barrier (backend's distributed/barrier-markers.ts)
 *   phase/P/I@MS                      the gate before each later measured phase P (phase-gate.ts)
 *   progress/I.json                   ShardProgress, about every second while it runs (less
 *                                     often above 100 shards), and at each phase's end
 *   shards/I/result.json              ShardResult, when it ends (complete, stopped, serverLost
 *                                     — its server stopped answering — or failed)
 *   shards/I/records.ndjson.gz        optional: its records (ShardRecordsHeader, then lines)
 *   done/I                            ShardDone, written last
 *
 * `taillab merge` reads them back into one run of the results library.
 */
export const DISTRIBUTED_SCHEMA_VERSION = 1;

/** One operation of one phase of a shard: its figures and its whole account, to merge exactly. */
export const ShardPhaseSchema = z.object({
  op: OperationSchema,
  loop: LoopSchema,
  /** The hedge budget when backups were on for this operation, else null. */
  hedgeBudgetPct: z.number().nullable(),
  summary: PhaseSummarySchema,
  /** Times in µs of the shard's run clock: add runStartEpochMs for epoch time. */
  account: PhaseAccountDeltaSchema,
});
export type ShardPhase = z.infer<typeof ShardPhaseSchema>;

/** shards/I/result.json */
export const ShardResultSchema = z.object({
  schemaVersion: z.literal(DISTRIBUTED_SCHEMA_VERSION),
  kind: z.literal("taillab-shard-result"),
  runId: z.string(),
  index: z.number().int().min(0),
  shards: z.number().int().min(1),
  /** The whole run's spec, the same for every shard (this shard ran its share of it). */
  spec: RunSpecSchema,
  /** Where it ran, with the TailLab version: shards of different versions are not merged. */
  environment: RunEnvironmentSchema,
  endpointUrls: z.array(z.string()),
  /**
   * Epoch ms at which this shard's run clock reads 0: every µs time in its accounts and records
   * counts from it (interval k covers [runStartEpochMs + k s, + 1 s)). Shards align it on the
   * common start to a whole second, so their intervals line up.
   */
  runStartEpochMs: z.number(),
  /** The earliest start every shard was given (--start-at), epoch ms. */
  startAtMs: z.number(),
  /** The start every shard derived from the barrier, epoch ms; null when it never passed it. */
  t0Ms: z.number().nullable(),
  /** When this shard sent its first measured phase off, epoch ms (its own clock). */
  startedAtMs: z.number().nullable(),
  clock: ClockCheckSchema.nullable(),
  status: ShardStatusSchema,
  /** Why a failed shard failed. */
  error: z.string().nullable(),
  points: z.array(
    z.object({
      /** This shard's share of the point (its clients and requests). */
      params: RunPointParamsSchema,
      finished: z.boolean(),
      phases: z.array(ShardPhaseSchema),
    }),
  ),
  /** Records uploaded beside it (`shards/I/records.ndjson.gz`), or null. */
  recordCount: z.number().int().min(0).nullable(),
  /** Phases its server's silence ended early (status serverLost); absent when none. */
  serverLosses: z.array(ServerLossSchema).optional(),
  /** Its server did not answer again: it ended there, before the others' phases. */
  serverGone: ServerGoneSchema.optional(),
});
export type ShardResult = z.infer<typeof ShardResultSchema>;

/**
 * progress/I.json: what a shard is doing, for live views (rewritten about every second). A phase's
 * last progress is always written, with every request the shard measured in it: a finished
 * shard's last progress is its final figures.
 */
export const ShardProgressSchema = z.object({
  schemaVersion: z.literal(DISTRIBUTED_SCHEMA_VERSION),
  kind: z.literal("taillab-shard-progress"),
  index: z.number().int().min(0),
  shards: z.number().int().min(1),
  updatedAtMs: z.number(),
  progress: RunProgressSchema,
  /** The running phase's latency so far (µs), to merge the shards' live percentiles exactly. */
  latency: EncodedTallySchema.nullable(),
  /** The phase has ended: these are its last figures. Absent from an older shard's progress. */
  ended: z.boolean().optional(),
  /**
   * The phase before this one as it ended, for a live view that did not see every shard end it
   * (the shards move on together, between two of its looks). Absent before the second phase.
   */
  previous: z
    .object({ progress: RunProgressSchema, latency: EncodedTallySchema.nullable() })
    .optional(),
  /**
   * The running phase's per-second histograms, its newest seconds only (so the object stays
   * small), on the shard's run clock: with that clock's origin and the common start (T0, the
   * merged run clock's origin), to merge the shards' percentiles over time exactly. Absent from
   * an older shard's progress.
   */
  recentIntervals: RecentIntervalsSchema.extend({
    /** Epoch ms at which the shard's run clock reads 0, as in its result. */
    runStartEpochMs: z.number(),
    /** The start every shard derived from the barrier, epoch ms. */
    t0Ms: z.number(),
  }).optional(),
});
export type ShardProgress = z.infer<typeof ShardProgressSchema>;

/** done/I: the shard has written everything it will. */
export const ShardDoneSchema = z.object({
  index: z.number().int().min(0),
  status: ShardStatusSchema,
  at: z.iso.datetime(),
});
export type ShardDone = z.infer<typeof ShardDoneSchema>;

/** The first line of shards/I/records.ndjson.gz; each later line is a ShardRecordLine. */
export const ShardRecordsHeaderSchema = z.object({
  schemaVersion: z.literal(DISTRIBUTED_SCHEMA_VERSION),
  kind: z.literal("taillab-shard-records"),
  index: z.number().int().min(0),
  /** Record times count from it (µs), as in the shard's result. */
  runStartEpochMs: z.number(),
});
export type ShardRecordsHeader = z.infer<typeof ShardRecordsHeaderSchema>;

/** [point index, record] */
export const ShardRecordLineSchema = z.tuple([z.number().int().min(0), RequestRecordSchema]);
export type ShardRecordLine = z.infer<typeof ShardRecordLineSchema>;

/** A distributed run's shards as it goes, from its Job and from the run's folder. */
export const ShardsStatusSchema = z.object({
  shardCount: z.number().int().min(1),
  /** Pods running and ready, as Kubernetes counts them. */
  podsReady: z.number().int().min(0),
  /** Shards at or past the start barrier (ready markers). */
  ready: z.array(z.number().int().min(0)),
  /** Shards measuring (their progress objects). */
  running: z.array(z.number().int().min(0)),
  /** Shards that left their result. */
  done: z.array(z.number().int().min(0)),
  /** Indexes the Job counts as failed (a shard that exited 3, a pod that died). */
  failed: z.array(z.number().int().min(0)),
  /** The Job: running, or how it finished. */
  job: z.enum(["running", "Complete", "Failed"]),
  /** Why the Job failed, when it did. */
  message: z.string().nullable(),
});
export type ShardsStatus = z.infer<typeof ShardsStatusSchema>;
