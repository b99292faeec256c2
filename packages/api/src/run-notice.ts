import { z } from "zod";
import { ApiErrorSchema } from "./api-error.ts";
import { OperationSchema } from "./results.ts";
import { RequestModeSchema } from "./run-spec.ts";

/**
 * A notice during a run, as data a UI can put in its own language: what happened (`code`) and
 * its figures. The English sentence travels beside it (`message`) for the CLI and for a UI that
 * does not know the code.
 */
export const RunNoticeSchema = z.discriminatedUnion("code", [
  /** DELETE and bucket operations are never sent twice, whatever the mode. */
  z.object({
    code: z.literal("unhedgedOps"),
    params: z.object({ mode: RequestModeSchema, ops: z.array(z.string()) }),
  }),
  /** Backups of a service with one replica go to that replica, on connections of their own. */
  z.object({
    code: z.literal("backupsShareReplica"),
    params: z.object({ mode: RequestModeSchema }),
  }),
  /** `profile`: a builtin profile's name, or "custom" for a profile object of the spec's. */
  z.object({
    code: z.literal("testbedStarted"),
    params: z.object({ urls: z.array(z.string()), profile: z.string(), seed: z.number() }),
  }),
  /** After a stop or failed DELETEs: the point's objects are deleted in bulk. */
  z.object({ code: z.literal("cleanupLeftovers"), params: z.object({ objects: z.number() }) }),
  /** A distributed run's Job was submitted; its shards meet and leave results in `folder`. */
  z.object({
    code: z.literal("jobSubmitted"),
    params: z.object({
      job: z.string(),
      namespace: z.string(),
      shards: z.number(),
      folder: z.string(),
    }),
  }),
  /** A distributed run was stopped: its stop marker written, its Job deleted. */
  z.object({ code: z.literal("distributedStopping"), params: z.object({}) }),
  /**
   * A phase ended early: for `silentMs` nothing but requests without an answer in time, the
   * first sent `sinceMs` into the run (run clock from `runStartEpochMs`). `phase` is the
   * phase's operation, or "mix" for a mixed workload.
   */
  z.object({
    code: z.literal("serverLost"),
    params: z.object({
      runStartEpochMs: z.number(),
      sinceMs: z.number(),
      silentMs: z.number(),
      failures: z.number(),
      lastError: z.string(),
      phase: z.string(),
    }),
  }),
  /**
   * After a phase the server's silence ended, before anything more is sent: one cheap request
   * asks whether it answers, until `deadlineMs` (run clock); without an answer the run ends then.
   */
  z.object({
    code: z.literal("serverProbe"),
    params: z.object({ runStartEpochMs: z.number(), deadlineMs: z.number() }),
  }),
  /** The probe got an answer: the run goes on. */
  z.object({ code: z.literal("serverBack"), params: z.object({}) }),
  /**
   * The probe got no answer (`probeError`): the run ends there. Not run: the point's `phases`
   * (operations, or "mix"), its later `repetitions` (absent when none) and the sweep's `points`
   * after it.
   */
  z.object({
    code: z.literal("serverGone"),
    params: z.object({
      probeError: z.string(),
      phases: z.array(z.string()),
      repetitions: z.number().int().min(1).optional(),
      points: z.number().int().min(0),
    }),
  }),
  /** --create-bucket made the bucket: it stays after the run. */
  z.object({
    code: z.literal("bucketCreated"),
    params: z.object({ bucket: z.string(), url: z.string() }),
  }),
  /**
   * A shard's preflight check got no answer, or a transient one: it is tried again until the
   * start barrier's deadline (`until`, ISO time), said once.
   */
  z.object({
    code: z.literal("preflightRetrying"),
    params: z.object({ url: z.string(), error: z.string(), until: z.string() }),
  }),
  /** An https endpoint whose certificates are not checked (insecure). */
  z.object({ code: z.literal("tlsUnchecked"), params: z.object({ url: z.string() }) }),
  /**
   * The run's cleanup could not remove everything: `taillab cleanup` or the run's page removes
   * the rest (run.json's `cleanup` has the details).
   */
  z.object({
    code: z.literal("cleanupIncomplete"),
    params: z.object({
      objects: z.number(),
      uploads: z.number(),
      buckets: z.number(),
      /** The most frequent error code that kept them. */
      error: z.string(),
    }),
  }),
  /**
   * What follows a run's measuring (its cleanup, and keeping the cleanup's outcome) failed
   * (`reason`); the run's figures are kept.
   */
  z.object({ code: z.literal("cleanupFailed"), params: z.object({ reason: ApiErrorSchema }) }),
  /**
   * A run of a mode series ended because its server did not answer again: the series ends there,
   * its later modes (`modes`) not run.
   */
  z.object({
    code: z.literal("modesNotRun"),
    params: z.object({ modes: z.array(RequestModeSchema).min(1) }),
  }),
  /** The next run of a mode series failed to start (`reason`, with its fields); the series ends. */
  z.object({
    code: z.literal("modeCouldNotStart"),
    params: z.object({ mode: RequestModeSchema, reason: ApiErrorSchema }),
  }),
  /**
   * Some of a distributed run's pods have not started, and the cluster says why (`reasons`, its
   * own words: admission, scheduler, image pull); past the barrier's deadline the run ends.
   */
  z.object({ code: z.literal("podsNotStarting"), params: z.object({ reasons: z.string() }) }),
  /** A distributed run's Job could not be deleted when the run ended: its pods may linger. */
  z.object({ code: z.literal("jobNotDeleted"), params: z.object({ error: z.string() }) }),
  /** A distributed run's folder could not be read this time; the next look tries again. */
  z.object({ code: z.literal("folderUnreadable"), params: z.object({ error: z.string() }) }),
  /**
   * A shard's process ended without its result (the Job marked its index failed), but its
   * `gone/` marker could not be written: the others wait for it at their next phase gate until
   * the barrier timeout, then go on without it.
   */
  z.object({
    code: z.literal("goneNotWritten"),
    params: z.object({ shard: z.number().int().min(0), error: z.string() }),
  }),
  /** The run is in the library, but its folder in the bucket could not be removed. */
  z.object({
    code: z.literal("runFolderLeft"),
    params: z.object({ folder: z.string(), error: z.string() }),
  }),
  /**
   * Parts of an operation's request timelines came out negative (clocks that disagree): each was
   * counted as 1 µs, so its figures are a little off (PhaseSummary.negativeIntervals).
   */
  z.object({
    code: z.literal("negativeIntervals"),
    params: z.object({ op: OperationSchema, intervals: z.number() }),
  }),
  /** A shard could not write its progress to the run's folder; its run goes on. */
  z.object({
    code: z.literal("progressNotWritten"),
    params: z.object({ shard: z.number(), error: z.string() }),
  }),
]);
export type RunNotice = z.infer<typeof RunNoticeSchema>;
export type RunNoticeCode = RunNotice["code"];
