import { z } from "zod";
import { ApiErrorSchema, type ApiEnvelope } from "./api-error.ts";
import { RunNoticeSchema } from "./run-notice.ts";
import { wholeCount } from "./checked-number.ts";
import { RUN_NAME_MAX_LENGTH } from "./run-name.ts";
import { coded, codedRefinement, codedTextShape } from "./coded-message.ts";
import type { ApiMethodName } from "./api-method-names.ts";
import { FieldErrorSchema } from "./field-error.ts";
import { LiveTuningSchema, RunMarkerSchema } from "./live-tuning.ts";
import { TestbedSetupSchema } from "./latency-profile.ts";
import { strictObject } from "./strict-object.ts";
import { ShardsStatusSchema } from "./distributed-run.ts";
import { OperationSchema, RunProgressSchema, RunSummarySchema } from "./results.ts";
import { MAX_RUN_ENDPOINTS, RequestModeSchema, RunPointParamsSchema } from "./run-spec.ts";
import {
  PhaseHistogramsSchema,
  RunCleanupSchema,
  RunDamageSchema,
  PhaseIntervalsSchema,
  RunIndexEntrySchema,
  RunMetaSchema,
} from "./stored-run.ts";
import { ClientSecondSchema } from "./client-health.ts";

/**
 * The contract between the UI and the backend: every call the desktop app (IPC) and the browser
 * host (HTTP + WebSocket) carry, each with the schema of its one input and of its answer, and the
 * events a run streams. Hosts validate every input with these schemas before the backend sees it.
 */

/** The id of a saved endpoint, experiment or run, in a call's input. */
const requiredId = z.string().min(1);

// ---------------------------------------------------------------------------------------------
// Endpoints

/** The servers the endpoint form has presets for; `custom` is any other S3-compatible server. */
export const EndpointKindSchema = z.enum([
  "testbed",
  "minio",
  "ceph-rgw",
  "swift",
  "aws",
  "s3mock",
  "moto",
  "custom",
]);
export type EndpointKind = z.infer<typeof EndpointKindSchema>;

/**
 * Where an endpoint's keys come from. stored: the access key id is saved with the endpoint and
 * the secret in the host's secret store (OS keychain in the desktop app), never sent back to the
 * UI; env: names of environment variables the backend reads; anonymous: unsigned requests.
 */
export const EndpointCredentialsSchema = z.discriminatedUnion("kind", [
  strictObject({ kind: z.literal("stored"), accessKeyId: z.string().min(1) }),
  strictObject({
    kind: z.literal("env"),
    accessKeyIdVar: z.string().min(1),
    secretAccessKeyVar: z.string().min(1),
  }),
  strictObject({ kind: z.literal("anonymous") }),
]);
export type EndpointCredentials = z.infer<typeof EndpointCredentialsSchema>;

const endpointName = z.string().trim().min(1).max(100);

/**
 * What the endpoint form sends. `url` is required for every kind but `testbed` (its ports are
 * chosen when it starts); `secretAccessKey` is write-only: omitted on an edit, the stored one
 * is kept. Field rules (URL shape, bucket name) are checked by the backend so errors name fields.
 */
export const EndpointDraftSchema = strictObject({
  name: endpointName,
  kind: EndpointKindSchema,
  url: z.string().trim().optional(),
  region: z.string().trim().min(1).default("us-east-1"),
  addressing: z.enum(["path", "virtual-host"]).default("path"),
  bucket: z.string().trim().min(1).default("loadgen"),
  credentials: EndpointCredentialsSchema,
  secretAccessKey: z.string().min(1).optional(),
  /** https only: a PEM file (on the backend's machine) of the CA a lab server's certificate has. */
  caFile: z.string().trim().min(1).optional(),
  /** https only: no certificate check at all; every run says so. */
  insecure: z.boolean().default(false),
  /** kind testbed only: replicas, latency profile, seed. */
  testbed: TestbedSetupSchema.optional(),
});
export type EndpointDraft = z.output<typeof EndpointDraftSchema>;
export type EndpointDraftInput = z.input<typeof EndpointDraftSchema>;

/** The endpoint every first start has; the built-in experiments run on it, so it stays. */
export const EMBEDDED_TESTBED_ENDPOINT_ID = "testbed";
/** Its name until someone renames it (the UI shows it in the UI's language while it is). */
export const EMBEDDED_TESTBED_DEFAULT_NAME = "Embedded testbed";

/** A saved endpoint as the UI sees it: everything but the secret. */
export const SavedEndpointSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: EndpointKindSchema,
  url: z.string().optional(),
  region: z.string(),
  addressing: z.enum(["path", "virtual-host"]),
  bucket: z.string(),
  credentials: EndpointCredentialsSchema,
  /** stored credentials: whether a secret is saved for them. */
  hasSecret: z.boolean(),
  /** https: the CA file to trust, or (insecure: true) no certificate check. */
  caFile: z.string().optional(),
  insecure: z.boolean().optional(),
  testbed: TestbedSetupSchema.optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SavedEndpoint = z.infer<typeof SavedEndpointSchema>;

/** Test an endpoint: a saved one by id, or a draft before it is saved (its stored secret kept). */
export const ConnectionTestInputSchema = strictObject({
  endpointId: z.string().optional(),
  draft: EndpointDraftSchema.optional(),
});
export type ConnectionTestInput = z.input<typeof ConnectionTestInputSchema>;

export const ConnectionVerdictSchema = z.enum([
  "ok",
  /** Nothing answers at the URL (refused, timed out, DNS, TLS). */
  "unreachable",
  /** The server answered but refused the keys (InvalidAccessKeyId, SignatureDoesNotMatch). */
  "credentials",
  /** Keys accepted, bucket missing (NoSuchBucket) or not ours (AccessDenied on it). */
  "bucket",
  "error",
]);
export type ConnectionVerdict = z.infer<typeof ConnectionVerdictSchema>;

export const ConnectionCheckSchema = z.object({
  name: z.enum(["reachable", "credentials", "bucket", "requests"]),
  /** null: not tried because an earlier check failed. */
  ok: z.boolean().nullable(),
  /** What the check found, in English; `code` and `params` say it as data. */
  detail: z.string(),
  ...codedTextShape,
});

export const ConnectionReportSchema = z.object({
  verdict: ConnectionVerdictSchema,
  /** One sentence for a person, naming the endpoint and what to do; `code` and `params` as data. */
  message: z.string(),
  ...codedTextShape,
  checks: z.array(ConnectionCheckSchema),
  /** The Server header, when one was sent. */
  server: z.string().nullable(),
  /** A few timed requests (HEAD bucket, PUT, GET, DELETE of a probe key) when reachable. */
  timings: z.array(z.object({ op: OperationSchema, latencyMs: z.number() })),
});
export type ConnectionReport = z.infer<typeof ConnectionReportSchema>;

// ---------------------------------------------------------------------------------------------
// Experiments

/**
 * Where an experiment's load comes from: this machine, or N pods on the Kubernetes cluster of the
 * Kubernetes settings, each a shard of one distributed run, merged at the end.
 */
export const LoadGeneratorsSchema = z.discriminatedUnion("kind", [
  strictObject({ kind: z.literal("local") }),
  strictObject({
    kind: z.literal("kubernetes"),
    shards: wholeCount("pods", 10_000),
  }),
]);
export type LoadGenerators = z.infer<typeof LoadGeneratorsSchema>;

/**
 * A saved experiment: an endpoint and a run spec without endpoints (the backend fills them in
 * from the endpoint when it runs). The spec is kept as typed so a draft with mistakes can be
 * saved and fixed later; validate and preview name each bad field.
 */
export const ExperimentDraftSchema = strictObject({
  name: z.string().trim().min(1).max(RUN_NAME_MAX_LENGTH),
  description: z.string().max(2000).default(""),
  endpointId: z.string().refine((id) => id !== "", codedRefinement(coded("chooseEndpoint"))),
  /**
   * Saved endpoints that are replicas of `endpointId`'s server (same bucket and objects): the
   * run's endpoints after it, which hedged and tied requests spread over. Absent: none.
   */
  replicaEndpointIds: z
    .array(z.string())
    .max(MAX_RUN_ENDPOINTS - 1)
    .optional(),
  spec: z.record(z.string(), z.unknown()),
  /**
   * Run the spec once per mode (e.g. normal, hedged, tied), each a run of its own in the
   * library, to compare them; absent: one run in the spec's mode.
   */
  modes: z
    .array(RequestModeSchema)
    .refine((modes) => modes.length > 0, codedRefinement(coded("chooseMode")))
    .optional(),
  /** Absent: this machine. */
  loadGenerators: LoadGeneratorsSchema.optional(),
});
export type ExperimentDraft = z.output<typeof ExperimentDraftSchema>;
export type ExperimentDraftInput = z.input<typeof ExperimentDraftSchema>;

export const ExperimentSchema = ExperimentDraftSchema.extend({
  id: z.string(),
  /** Built-in experiments replay the labs; they can be run and copied, not changed. */
  builtIn: z.boolean(),
  updatedAt: z.iso.datetime(),
});
export type Experiment = z.infer<typeof ExperimentSchema>;

/** A run among the runs of an experiment with several modes. */
export const RunSeriesSchema = z.object({
  index: z.number().int().min(0),
  count: z.number().int().min(1),
  mode: RequestModeSchema,
});
export type RunSeries = z.infer<typeof RunSeriesSchema>;

/** What running a draft would do, or why it cannot run. */
export const ExperimentPreviewSchema = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    points: z.array(RunPointParamsSchema),
    /** Measured requests over every point, phase, repetition and mode (open loop: rate × duration). */
    requestCount: z.number().int().min(0),
    /** Rough: null when it depends on the server's speed (a closed loop). */
    durationMs: z.number().nullable(),
  }),
  z.object({ ok: z.literal(false), errors: z.array(FieldErrorSchema) }),
]);
export type ExperimentPreview = z.infer<typeof ExperimentPreviewSchema>;

// ---------------------------------------------------------------------------------------------
// Runs

export const StartRunInputSchema = strictObject({
  experiment: ExperimentDraftSchema,
  /** The run's name in the library; default: the experiment's name. */
  name: z.string().trim().max(RUN_NAME_MAX_LENGTH).optional(),
});
export type StartRunInput = z.input<typeof StartRunInputSchema>;

/** Percentiles of the phase running now, from every request it finished so far. */
export const LivePercentilesSchema = z.object({
  p50Ms: z.number(),
  p90Ms: z.number(),
  p99Ms: z.number(),
  p999Ms: z.number(),
  maxMs: z.number(),
  count: z.number().int().min(0),
});
export type LivePercentiles = z.infer<typeof LivePercentilesSchema>;

/**
 * The intervals (seconds of the run clock) of the phase running now that changed since the last
 * event: the one still filling and any that closed since. The UI keeps them by startMs.
 */
export const LiveIntervalsSchema = PhaseIntervalsSchema;
export type LiveIntervals = z.infer<typeof LiveIntervalsSchema>;

export const RunEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("started"),
    runId: z.string(),
    name: z.string(),
    points: z.array(RunPointParamsSchema),
    requestCount: z.number().int().min(0),
    series: RunSeriesSchema,
    /** The knobs of a live session (retuneRun moves them); absent for a run that has none. */
    tuning: LiveTuningSchema.optional(),
  }),
  /** A live session's knobs moved (by any window): the marker on its timeline. */
  z.object({ type: z.literal("retuned"), runId: z.string(), marker: RunMarkerSchema }),
  /** About 4 a second at most, whatever the engine's speed. */
  z.object({
    type: z.literal("progress"),
    progress: RunProgressSchema,
    percentiles: LivePercentilesSchema.nullable(),
    /**
     * The same over the phase's newest seconds (core's RECENT_WINDOW_SECONDS): what the server
     * does now. Absent from hosts that do not send it.
     */
    recentPercentiles: LivePercentilesSchema.nullable().optional(),
    intervals: LiveIntervalsSchema.nullable(),
    /**
     * The client's seconds that changed since the last event (whether TailLab kept up); absent
     * from hosts that do not measure it (a distributed run's shards keep their own).
     */
    client: z.array(ClientSecondSchema).optional(),
  }),
  /** A distributed run's shards, whenever the Job or the run's folder shows a change. */
  z.object({ type: z.literal("shards"), runId: z.string(), status: ShardsStatusSchema }),
  z.object({
    type: z.literal("notice"),
    runId: z.string(),
    /** In English, for a person (the CLI prints it). */
    message: z.string(),
    /** The same as data, for a UI to say in its language; absent for a free-form notice. */
    notice: RunNoticeSchema.optional(),
  }),
  z.object({
    type: z.literal("finished"),
    runId: z.string(),
    status: z.enum(["complete", "stopped", "serverLost", "failed"]),
    /** Why a failed run failed, for a person. */
    error: ApiErrorSchema.nullable(),
    series: RunSeriesSchema,
    /** The runs of the series finished so far, this one last: the last one's list compares them. */
    seriesRunIds: z.array(z.string()),
  }),
]);
export type RunEvent = z.infer<typeof RunEventSchema>;

/** The run in progress, for a UI that opens (or reloads) while one runs. */
export const ActiveRunSchema = z.object({
  runId: z.string(),
  name: z.string(),
  points: z.array(RunPointParamsSchema),
  requestCount: z.number().int().min(0),
  startedAt: z.iso.datetime(),
  series: RunSeriesSchema,
  lastProgress: RunProgressSchema.nullable(),
  /** A live session's knobs as they are now, and its markers so far; absent for other runs. */
  tuning: LiveTuningSchema.optional(),
  markers: z.array(RunMarkerSchema).optional(),
  /** A distributed run's shards as last seen; null for a run on this machine. */
  shards: ShardsStatusSchema.nullable(),
});
export type ActiveRun = z.infer<typeof ActiveRunSchema>;

// ---------------------------------------------------------------------------------------------
// Results library and reports

export const RunIdSchema = strictObject({ runId: requiredId });

/**
 * Where a stored run came from, as far as the saved endpoints and experiments still say: the
 * endpoint to run it again on, and the experiment whose run it is (null: none any more).
 */
export const RunOriginSchema = z.object({
  /** Null too when a replica the run also sent to has no saved endpoint any more. */
  endpointId: z.string().nullable(),
  /** The saved endpoints of the run's other replicas, in its order; absent: it had none. */
  replicaEndpointIds: z.array(z.string()).optional(),
  experimentId: z.string().nullable(),
});
export type RunOrigin = z.infer<typeof RunOriginSchema>;

/** Latency against request index of one phase, decimated (see core's decimateSeries). */
export const LatencySeriesSchema = z.object({
  pointIndex: z.number().int().min(0),
  op: OperationSchema,
  buckets: z.array(
    z.object({
      firstIndex: z.number().int().min(0),
      lastIndex: z.number().int().min(0),
      count: z.number().int().min(0),
      min: z.number(),
      max: z.number(),
      mean: z.number(),
    }),
  ),
});
export type LatencySeriesData = z.infer<typeof LatencySeriesSchema>;

/** One stored run, with what its charts need; interrupted runs carry a rebuilt summary. */
export const RunDetailSchema = z.object({
  meta: RunMetaSchema,
  summary: RunSummarySchema,
  histograms: z.array(PhaseHistogramsSchema),
  latencySeries: z.array(LatencySeriesSchema),
  /** What was wrong with the run's folder (the figures cover what could be read), or null. */
  damage: RunDamageSchema.nullable().default(null),
  /** Percentiles over time, per point and operation. */
  intervals: z.array(PhaseIntervalsSchema),
});
export type RunDetail = z.infer<typeof RunDetailSchema>;

export const ReportLanguageSchema = z.enum(["en", "zh-CN"]);

export const ExportInputSchema = strictObject({
  runIds: z.array(requiredId).refine((ids) => ids.length > 0, codedRefinement(coded("chooseRun"))),
  format: z.enum(["csv", "json", "html"]),
  language: ReportLanguageSchema.default("en"),
  /** CSV of one run: one row per request instead of one per point and phase. */
  requests: z.boolean().default(false),
  /** CSV: one row per second of each point and operation (percentiles over time). */
  perSecond: z.boolean().default(false),
  /** CSV: a UTF-8 byte-order mark, for Excel. */
  bom: z.boolean().default(false),
  /** Several runs: the one the others are compared with. */
  baselineIndex: z.number().int().min(0).default(0),
});
export type ExportInput = z.input<typeof ExportInputSchema>;

/**
 * The browser host's download of one run's per-request CSV (`?runId=<id>`, `&bom=1` for Excel):
 * too large for one answer, it is streamed to the browser rather than called.
 */
export const REQUESTS_CSV_DOWNLOAD_PATH = "/download/requests.csv";

export const ExportedFileSchema = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  content: z.string(),
});
export type ExportedFile = z.infer<typeof ExportedFileSchema>;

// ---------------------------------------------------------------------------------------------
// Embedded testbed and the app

export const TestbedStatusSchema = z.object({
  running: z.boolean(),
  setup: TestbedSetupSchema.nullable(),
  /** One per replica. */
  urls: z.array(z.string()),
  bucket: z.string().nullable(),
  /** For pointing another tool at it; generated per start, never the user's keys. */
  accessKeyId: z.string().nullable(),
  secretAccessKey: z.string().nullable(),
});
export type TestbedStatus = z.infer<typeof TestbedStatusSchema>;

export const LatencyProfileInfoSchema = z.object({ name: z.string(), summary: z.string() });

/**
 * Where distributed runs go: a kubeconfig file and one of its contexts, a namespace, the TailLab
 * image the pods run and how they are placed and bounded. Empty means the default: $KUBECONFIG
 * (then ~/.kube/config), its current context, that context's namespace (else default), the image
 * of this TailLab version, and `taillab k8s run`'s defaults for the rest.
 */
export const KubernetesSettingsSchema = strictObject({
  kubeconfig: z.string().trim().max(4096).default(""),
  context: z.string().trim().max(253).default(""),
  namespace: z.string().trim().max(63).default(""),
  image: z.string().trim().max(512).default(""),
  /** The pods' settings in `taillab k8s run`'s forms: "cpu=1,memory=1Gi", "disktype=ssd", … */
  requests: z.string().trim().max(512).default(""),
  limits: z.string().trim().max(512).default(""),
  nodeSelector: z.string().trim().max(1024).default(""),
  tolerations: z.string().trim().max(1024).default(""),
  imagePullSecrets: z.string().trim().max(1024).default(""),
  /** prefer, require or none */
  spread: z.string().trim().max(16).default(""),
  /** How long the finished Job stays, a duration such as "1h". */
  ttl: z.string().trim().max(32).default(""),
});
export type KubernetesSettings = z.output<typeof KubernetesSettingsSchema>;
export type KubernetesSettingsInput = z.input<typeof KubernetesSettingsSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  host: z.enum(["electron", "web"]),
  resultsDir: z.string(),
  dataDir: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

const none = z.undefined();
const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({
  input,
  output,
});

/**
 * Every call, by name: one input (or none), one answer. The names are the IPC channels
 * (`taillab:<name>`) and the HTTP routes (`POST /api/<name>`).
 */
export const API_METHODS = {
  appInfo: method(none, AppInfoSchema),

  listEndpoints: method(none, z.array(SavedEndpointSchema)),
  addEndpoint: method(EndpointDraftSchema, SavedEndpointSchema),
  updateEndpoint: method(
    strictObject({ endpointId: requiredId, draft: EndpointDraftSchema }),
    SavedEndpointSchema,
  ),
  removeEndpoint: method(strictObject({ endpointId: requiredId }), z.void()),
  testConnection: method(ConnectionTestInputSchema, ConnectionReportSchema),
  /** Creates the endpoint's bucket (as a run's createBucket does), then tests it again. */
  createBucket: method(ConnectionTestInputSchema, ConnectionReportSchema),

  listExperiments: method(none, z.array(ExperimentSchema)),
  saveExperiment: method(
    strictObject({ experimentId: z.string().optional(), draft: ExperimentDraftSchema }),
    ExperimentSchema,
  ),
  removeExperiment: method(strictObject({ experimentId: requiredId }), z.void()),
  previewExperiment: method(ExperimentDraftSchema, ExperimentPreviewSchema),

  startRun: method(StartRunInputSchema, z.object({ runId: z.string() })),
  /** Stops the series `runId` belongs to; nothing if it has ended; an id no run has is refused. */
  stopRun: method(RunIdSchema, z.void()),
  activeRun: method(none, ActiveRunSchema.nullable()),
  /**
   * Moves knobs of the live session `runId` (the others stay); answers the marker put on its
   * timeline. A run that is not a live session, or has ended, is an InputError naming runId.
   */
  retuneRun: method(
    strictObject({ runId: requiredId, tuning: LiveTuningSchema.partial() }),
    RunMarkerSchema,
  ),

  listRuns: method(none, z.array(RunIndexEntrySchema)),
  getRun: method(RunIdSchema, RunDetailSchema),
  runOrigin: method(RunIdSchema, RunOriginSchema),
  renameRun: method(
    strictObject({
      runId: requiredId,
      name: z.string().trim().min(1).max(RUN_NAME_MAX_LENGTH),
    }),
    RunIndexEntrySchema,
  ),
  tagRun: method(
    strictObject({
      runId: requiredId,
      tag: z.string().trim().min(1).max(50),
    }),
    RunIndexEntrySchema,
  ),
  untagRun: method(
    strictObject({ runId: requiredId, tag: z.string().min(1) }),
    RunIndexEntrySchema,
  ),
  annotateRun: method(
    strictObject({
      runId: requiredId,
      notes: z.string().max(10_000),
    }),
    RunIndexEntrySchema,
  ),
  /** Moves the run to the library's trash, from where restoreRun brings it back. */
  removeRun: method(RunIdSchema, z.void()),
  /** Brings back the run last removed under its id (the library's undo of a delete). */
  restoreRun: method(RunIdSchema, RunIndexEntrySchema),
  /**
   * Removes what a run left on its server (objects under its prefix, open uploads, workload
   * buckets) with its endpoint's credentials; the outcome is kept in its run.json as well.
   */
  cleanupRun: method(RunIdSchema, RunCleanupSchema),
  exportReport: method(ExportInputSchema, ExportedFileSchema),

  testbedStatus: method(none, TestbedStatusSchema),
  startTestbed: method(TestbedSetupSchema, TestbedStatusSchema),
  stopTestbed: method(none, TestbedStatusSchema),
  listLatencyProfiles: method(none, z.array(LatencyProfileInfoSchema)),

  kubernetesSettings: method(none, KubernetesSettingsSchema),
  saveKubernetesSettings: method(KubernetesSettingsSchema, KubernetesSettingsSchema),
} as const satisfies Record<ApiMethodName, { input: z.ZodType; output: z.ZodType }>;

type MethodInput<N extends ApiMethodName> = z.input<(typeof API_METHODS)[N]["input"]>;
type MethodOutput<N extends ApiMethodName> = z.output<(typeof API_METHODS)[N]["output"]>;
/** What a host's backend receives: the input after its schema filled in defaults. */
type ParsedInput<N extends ApiMethodName> = z.output<(typeof API_METHODS)[N]["input"]>;

type Call<I, O> = [I] extends [undefined] ? () => Promise<O> : (input: I) => Promise<O>;

export type RunEventListener = (event: RunEvent) => void;

/** What the UI calls: one function per capability, failures thrown as AppError. */
export type TailLabApi = { [N in ApiMethodName]: Call<MethodInput<N>, MethodOutput<N>> } & {
  /** Returns a function that unsubscribes. */
  onRunEvent(listener: RunEventListener): () => void;
};

/** What packages/backend implements and every host wraps. */
export type TailLabService = { [N in ApiMethodName]: Call<ParsedInput<N>, MethodOutput<N>> } & {
  onRunEvent(listener: RunEventListener): () => void;
};

/**
 * `window.taillab`, as Electron's preload and the browser host's bridge expose it: one function
 * per capability answering an envelope, because an Error's fields do not survive contextBridge
 * (nor a second copy of AppError in another bundle). The UI rebuilds its TailLabApi from it.
 */
export type TailLabBridge = {
  [N in ApiMethodName]: (input?: MethodInput<N>) => Promise<ApiEnvelope<MethodOutput<N>>>;
} & {
  onRunEvent(listener: RunEventListener): () => void;
};
