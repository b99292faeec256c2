import { z } from "zod";
import { BucketNameSchema } from "./bucket-name.ts";
import {
  coded,
  codedIssue,
  codedRefinement,
  type CodedMessage,
  type MessageCode,
} from "./coded-message.ts";
import { parseByteSize } from "./byte-size.ts";
import { parseDuration, parseRate } from "./duration.ts";
import { issueMessage } from "./field-error.ts";
import { TestbedSetupSchema } from "./latency-profile.ts";
import { strictObject } from "./strict-object.ts";
import { parseBudgetPercent, parseHedgeDelay, type HedgeDelaySpec } from "./tail-options.ts";
import { wholeCount } from "./checked-number.ts";
import { RUN_NAME_MAX_LENGTH } from "./run-name.ts";

export const RUN_SPEC_SCHEMA_VERSION = 1;

/**
 * Where credentials come from. The spec only names them: secrets live in environment variables
 * (CLI) or the OS keychain (desktop app) and never in a spec, result or export.
 */
export const CredentialsRefSchema = z.discriminatedUnion("kind", [
  strictObject({
    kind: z.literal("env"),
    accessKeyIdVar: z.string().min(1),
    secretAccessKeyVar: z.string().min(1),
    sessionTokenVar: z.string().min(1).optional(),
  }),
  strictObject({ kind: z.literal("keychain"), id: z.string().min(1) }),
  strictObject({ kind: z.literal("anonymous") }),
]);
export type CredentialsRef = z.infer<typeof CredentialsRefSchema>;

export const DEFAULT_CREDENTIALS: CredentialsRef = {
  kind: "env",
  accessKeyIdVar: "AWS_ACCESS_KEY_ID",
  secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
};

/** An endpoint's address: http(s), host and port, no path (the bucket is not part of it). */
export const EndpointUrlSchema = z.string().refine(
  (text) => {
    try {
      const url = new URL(text);
      return (url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/";
    } catch {
      return false;
    }
  },
  codedRefinement(coded("urlShape")),
);

export const EndpointSchema = strictObject({
  url: EndpointUrlSchema,
  region: z.string().min(1).default("us-east-1"),
  /**
   * path: http://host/bucket/key; virtual-host: http://bucket.host/key, which needs a host name
   * (core's parseRunSpec refuses it for an IP address, see endpoint-rules.ts).
   */
  addressing: z.enum(["path", "virtual-host"]).default("path"),
  credentials: CredentialsRefSchema.default(DEFAULT_CREDENTIALS),
  /** https only: a PEM file of the CA that signed a lab server's self-signed certificate. */
  caFile: z.string().min(1).optional(),
  /** https only: accept any certificate (no verification at all); every run says so. */
  insecure: z.boolean().default(false),
});
export type Endpoint = z.infer<typeof EndpointSchema>;
export type EndpointInput = z.input<typeof EndpointSchema>;

const keyPrefix = z
  .string()
  .min(1)
  .max(512)
  .refine(
    (prefix) => !prefix.startsWith("/") && !prefix.endsWith("/"),
    codedRefinement(coded("keyPrefixSlash")),
  );

const byteSize = z.union([z.number(), z.string()]).transform((input, context) => {
  const parsed = parseByteSize(input);
  if (!parsed.ok) {
    context.addIssue(codedIssue(parsed.reason));
    return z.NEVER;
  }
  if (parsed.bytes > MAX_MULTIPART_OBJECT_BYTES) {
    context.addIssue(codedIssue(coded("sizeAboveObjectLimit")));
    return z.NEVER;
  }
  return parsed.bytes;
});

/** S3's limit for one PutObject. */
export const MAX_OBJECT_SIZE_BYTES = 5 * 1024 ** 3;
/** S3's limit for an object written in parts. */
export const MAX_MULTIPART_OBJECT_BYTES = 5 * 1024 ** 4;

/**
 * A value or a list of values; a list makes the run a sweep. Each value is checked on its own so
 * an error names the value (`clients: expected at least 1 client`, `objectSize[2]: …`).
 * A long list with many bad values names the first few and counts the others.
 */
function listOf<T extends z.ZodType>(item: T) {
  return z.custom<z.input<T> | z.input<T>[]>().transform((value, context): z.output<T>[] => {
    const isList = Array.isArray(value);
    const values: unknown[] = isList ? value : [value];
    if (values.length === 0) {
      context.addIssue(codedIssue(coded("atLeastOneValue")));
      return z.NEVER;
    }
    const parsed: z.output<T>[] = [];
    let badValues = 0;
    values.forEach((entry, index) => {
      const result = item.safeParse(entry, { reportInput: true });
      if (result.success) {
        parsed.push(result.data);
        return;
      }
      badValues += 1;
      if (badValues > MAX_LISTED_BAD_VALUES) return;
      for (const issue of result.error.issues) {
        const problem = entry === undefined ? coded("required") : issueMessage(issue);
        const path = isList ? [index] : [];
        context.addIssue(
          problem ? codedIssue(problem, path) : { code: "custom", message: issue.message, path },
        );
      }
    });
    if (badValues > MAX_LISTED_BAD_VALUES) {
      context.addIssue(
        codedIssue(coded("moreBadValues", { count: badValues - MAX_LISTED_BAD_VALUES })),
      );
    }
    return parsed;
  });
}

const MAX_LISTED_BAD_VALUES = 5;

const clientCount = () =>
  wholeCount("clients", MAX_CLIENTS, coded("tooManyClients", { max: MAX_CLIENTS }));

/**
 * Bounds past which a spec is a typo, not an experiment (the engine checks what this machine
 * can hold before it starts).
 */
export const MAX_CLIENTS = 100_000;
export const MAX_WORKERS = 1024;
export const MAX_RATE_HZ = 10_000_000;
/** The results store numbers a run's points with 16 bits. */
export const MAX_RUN_POINTS = 65_536;

export const PhaseSchema = z.enum(["write", "read", "cleanup"]);
export type Phase = z.infer<typeof PhaseSchema>;
export const PHASE_ORDER: readonly Phase[] = ["write", "read", "cleanup"];

export const TransportKindSchema = z.enum(["fast", "sdk"]);
export type TransportKind = z.infer<typeof TransportKindSchema>;

type TextParser<T> = (text: string) => { ok: true; value: T } | { ok: false; reason: CodedMessage };

/**
 * A number already in the unit, or text a parser turns into it (`30s`, `500/s`, `5%`), so users
 * write units and a normalised spec still re-parses. `check` bounds the number either way.
 */
function numberOrText(parse: TextParser<number>, check: (value: number) => CodedMessage | null) {
  return z.union([z.number(), z.string()]).transform((input, context) => {
    const parsed = typeof input === "number" ? { ok: true as const, value: input } : parse(input);
    const problem = parsed.ok ? check(parsed.value) : parsed.reason;
    if (problem === null && parsed.ok) return parsed.value;
    context.addIssue(codedIssue(problem ?? coded("invalidValue")));
    return z.NEVER;
  });
}

const parseDurationMs: TextParser<number> = (text) => {
  const parsed = parseDuration(text);
  return parsed.ok ? { ok: true, value: parsed.ms } : parsed;
};

const durationMs = numberOrText(parseDurationMs, (ms) =>
  Number.isFinite(ms) && ms >= 0 ? null : coded("durationNotNegative"),
);

const rateHz = numberOrText(
  (text) => {
    const parsed = parseRate(text);
    return parsed.ok ? { ok: true, value: parsed.rateHz } : parsed;
  },
  (hz) => {
    if (!(Number.isFinite(hz) && hz > 0)) return coded("rateAboveZero");
    return hz <= MAX_RATE_HZ ? null : coded("rateTooHigh", { max: MAX_RATE_HZ });
  },
);

/**
 * Open loop: requests start on a schedule (wrk2's constant rate, or Poisson arrivals) whatever
 * the server does, and latency counts from the scheduled start, so a stalled server cannot hide
 * its queue (no coordinated omission). Without it, the run is s3bench's closed loop.
 */
export const OpenLoopSchema = strictObject({
  /** Requests per second over the whole run (all workers); `500/s`, `30/min` or a number. */
  rateHz,
  arrivals: z.enum(["fixed", "poisson"]).default("fixed"),
  /** Requests per phase are rate × duration; without a duration, `samples` requests. */
  durationMs: durationMs.optional(),
  /**
   * No end: the workload's mix goes on until the run is stopped (the live tail lab). Needs a
   * workload, and neither `samples` nor `durationMs`; its points have UNTIL_STOPPED_SAMPLES.
   */
  untilStopped: z.boolean().optional(),
  /** Seeds Poisson arrivals so a run can be repeated. */
  seed: z.number().int().default(1),
});
export type OpenLoop = z.output<typeof OpenLoopSchema>;

/**
 * tied: both copies are sent and the first to answer cancels its twin from the client.
 * tied-server: as The Tail at Scale means them: each copy carries a tie id (TIE_ID_HEADER) and
 * the replica that starts serving one tells the other, which drops its twin from its queue.
 */
export const RequestModeSchema = z.enum(["normal", "hedged", "tied", "tied-server", "adaptive"]);
export type RequestMode = z.infer<typeof RequestModeSchema>;

/** Both copies at once (or tiedDelayMs apart), whichever side cancels the twin. */
export function isTiedMode(mode: RequestMode): mode is "tied" | "tied-server" {
  return mode === "tied" || mode === "tied-server";
}

/** A hedge delay as written (`30ms`, `p95`) or as parsed. */
export const HedgeDelaySchema = z
  .union([
    z.string(),
    strictObject({ kind: z.literal("fixed"), delayMs: z.number().min(0) }),
    strictObject({ kind: z.literal("percentile"), percentile: z.number().gt(0).lt(100) }),
  ])
  .transform((input, context): HedgeDelaySpec => {
    if (typeof input !== "string") return input;
    const parsed = parseHedgeDelay(input);
    if (parsed.ok) return parsed.value;
    context.addIssue(codedIssue(parsed.reason));
    return z.NEVER;
  });

const budgetPercent = numberOrText(
  (text) => {
    const parsed = parseBudgetPercent(text);
    return parsed.ok ? { ok: true, value: parsed.percent } : parsed;
  },
  (percent) => (percent >= 0 && percent <= 100 ? null : coded("percentageRange")),
);

/** How hedged, tied and adaptive requests behave (ignored in normal mode). */
export const HedgeOptionsSchema = strictObject({
  /**
   * When to send the backup: a fixed delay (`30ms`) or a percentile of recent latencies of the
   * same operation and size class (`p95`); adaptive mode scales that percentile by congestion.
   */
  delay: HedgeDelaySchema.default({ kind: "percentile", percentile: 95 }),
  /**
   * Backups may add at most this % of extra requests (a token bucket); tied requests ignore it.
   * A p95 delay hedges about 5 % of requests by definition, so the default cap sits above that and
   * binds only when latencies shift, as a safety limit rather than a second throttle.
   */
  budgetPercent: budgetPercent.default(10),
  /** Tied requests: the second copy leaves this long after the first (0: at once). */
  tiedDelayMs: durationMs.default(0),
  /** A percentile delay hedges only after this many latencies of the class were seen. */
  minSamples: z.number().int().min(1).default(20),
});
export type HedgeOptions = z.output<typeof HedgeOptionsSchema>;

export const ReplicaChoiceSchema = z.enum(["round-robin", "least-outstanding"]);
export type ReplicaChoice = z.infer<typeof ReplicaChoiceSchema>;

/**
 * A mixed workload instead of write-then-read phases: `prepareObjects` objects are written first
 * (not measured), then requests run with the operation mix until `samples` are done (or
 * `durationMs` has passed), each operation summarised on its own. Reads use the prepared objects,
 * writes new keys, deletes remove those: each operation's module says which (its mixPlanning).
 * The text fields are checked by core's parseRunSpec.
 */
export const WorkloadSchema = strictObject({
  /** e.g. `get:70,put:20,delete:5,list:5`, of the operations' MIX_WORDS. */
  ops: z.string().refine((ops) => ops.length > 0, codedRefinement(coded("opsExpected"))),
  prepareObjects: wholeCount("objects").default(1000),
  /** Which prepared object a request uses: uniform, sequential or zipf:EXPONENT. */
  keys: z.string().default("uniform"),
  /**
   * Object sizes instead of the point's one size: `4KiB,64KiB` (one of), `uniform:4KiB:4MiB`,
   * `lognormal:64KiB:4MiB`, `histogram:4KiB=50,64KiB=30,1MiB=20`. Each key's size is fixed by
   * the seed and the key, so a read knows what it should get back.
   */
  sizes: z.string().optional(),
  /** GET a byte range instead of the whole object: fixed:OFFSET:LENGTH or random:LENGTH. */
  range: z.string().optional(),
  /** Stop the mix after this long even if `samples` are not done. */
  durationMs: durationMs.optional(),
  /** Stop the mix once this many payload bytes were written and read. */
  totalBytes: byteSize.optional(),
  /** Requests that start in the first `warmupMs` run but are not counted. */
  warmupMs: durationMs.default(0),
  /** Keys per LIST request (one ListObjectsV2 page). */
  listPageSize: z.number().int().min(1).max(1000).default(100),
  /** Multipart uploads: part size (S3's minimum is 5 MiB) and parts in flight. */
  multipartPartBytes: byteSize.default(8 * 1024 * 1024),
  multipartPartsInFlight: wholeCount("parts").default(4),
  /** Seeds the operation, key and range choices. */
  seed: z.number().int().default(1),
});
export type Workload = z.output<typeof WorkloadSchema>;

/**
 * An attempt that has not ended this long after it was handed to the transport (waiting for a
 * connection, sending, the answer and its whole body) is cut off and fails as TIMEOUT_ERROR:
 * long enough for a 5 GiB object at 100 MB/s, short enough that a server that stopped answering
 * is noticed within a minute. Raise it for larger objects over slower links.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const MAX_REQUEST_TIMEOUT_MS = 3_600_000;

const requestTimeoutMs = numberOrText(parseDurationMs, (ms) =>
  Number.isFinite(ms) && ms >= 1 && ms <= MAX_REQUEST_TIMEOUT_MS
    ? null
    : coded("durationOutOfRange", { maxMinutes: MAX_REQUEST_TIMEOUT_MS / 60_000 }),
);

/** `p99.9` or 99.9: a percentile level, above 0 and below 100. */
const percentileLevel = numberOrText(
  (text) => {
    const level = /^p(\d+(?:\.\d+)?)$/i.exec(text.trim());
    return level
      ? { ok: true, value: Number(level[1]) }
      : { ok: false, reason: coded("percentileLevel") };
  },
  (level) => (level > 0 && level < 100 ? null : coded("percentileLevel")),
);

/**
 * Each measured phase (not the cleanup) ends once its tail figure is steady, by core's rule
 * (steady-state.ts: the percentile's 95 % interval and the figure itself within ±tolerance, and
 * ops/s too, for `holdMs`); its samples or duration are then its maximum, so it always ends.
 */
export const UntilSteadySchema = strictObject({
  percentile: percentileLevel.default(99),
  tolerancePercent: numberOrText(
    (text) => {
      const parsed = parseBudgetPercent(text);
      return parsed.ok ? { ok: true, value: parsed.percent } : parsed;
    },
    (percent) => (percent > 0 && percent <= 100 ? null : coded("percentageRange")),
  ).default(5),
  holdMs: numberOrText(parseDurationMs, (ms) =>
    Number.isFinite(ms) && ms > 0 ? null : coded("durationAboveZero"),
  ).default(2000),
});
export type UntilSteady = z.output<typeof UntilSteadySchema>;

/** The most servers (replicas of one service) a run spreads its requests over. */
export const MAX_RUN_ENDPOINTS = 16;

export const RunSpecSchema = strictObject({
  schemaVersion: z.literal(RUN_SPEC_SCHEMA_VERSION).default(RUN_SPEC_SCHEMA_VERSION),
  name: z.string().max(RUN_NAME_MAX_LENGTH).optional(),
  /**
   * Absent: the embedded testbed is started and used. Several endpoints are replicas of one
   * service (same bucket and objects): request modes spread attempts over them.
   */
  endpoints: z.array(EndpointSchema).min(1).max(MAX_RUN_ENDPOINTS).optional(),
  bucket: BucketNameSchema.default("loadgen"),
  keyPrefix: keyPrefix.default("taillab"),
  phases: z
    .array(PhaseSchema)
    .min(1)
    .default(["write", "read", "cleanup"])
    .transform((phases) => PHASE_ORDER.filter((phase) => phases.includes(phase)))
    .refine((phases) => phases.includes("write"), codedRefinement(coded("phasesNeedWrite"))),
  clients: listOf(clientCount()),
  /** Requests per phase; an open loop with a duration sends rate × duration instead. */
  samples: listOf(wholeCount("samples")).optional(),
  objectSize: listOf(byteSize),
  /** fast: undici + SigV4 with no middleware (the hot path); sdk: @aws-sdk/client-s3. */
  transport: TransportKindSchema.default("fast"),
  /** Worker threads for the request loops; default one per core but one (at least one). */
  workers: wholeCount("workers", MAX_WORKERS).optional(),
  /** Check size and checksum of every object read back. */
  verify: z.boolean().default(false),
  /** Per attempt, on the data path and in the setup and cleanup around it: `30s`, `2min`. */
  requestTimeoutMs: requestTimeoutMs.default(DEFAULT_REQUEST_TIMEOUT_MS),
  createBucket: z.boolean().default(false),
  openLoop: OpenLoopSchema.optional(),
  /** normal: one attempt; hedged, tied, adaptive: backups to another replica (see HedgeOptions). */
  mode: RequestModeSchema.default("normal"),
  hedge: HedgeOptionsSchema.default({
    delay: { kind: "percentile", percentile: 95 },
    budgetPercent: 10,
    tiedDelayMs: 0,
    minSamples: 20,
  }),
  replicaChoice: ReplicaChoiceSchema.default("round-robin"),
  workload: WorkloadSchema.optional(),
  /** Run each point this many times, as the cloud-testing paper did (5, max and min dropped). */
  repeat: z.number().int().min(1).max(100).default(1),
  /**
   * Explicit run points, replacing the cartesian expansion of clients × objectSize × samples:
   * for sweeps whose values move together (512 × 8 KiB … 2 × 2 MiB at a fixed total).
   */
  points: z
    .array(
      strictObject({
        clients: clientCount(),
        samples: wholeCount("samples"),
        objectSize: byteSize,
      }),
    )
    .min(1)
    .optional(),
  /**
   * Expressions the run must meet, in k6's habit (`GET p99.9<50ms`, `errors<0.1%`): core's
   * parseThreshold reads them; `taillab run` exits EXIT.thresholds when one fails.
   */
  thresholds: z.array(z.string().max(200)).max(100).optional(),
  untilSteady: UntilSteadySchema.optional(),
  /** The embedded testbed, used when there are no endpoints: replicas, latency profile, seed. */
  testbed: TestbedSetupSchema.default({ replicas: 1, profile: "fast", seed: 1 }),
}).superRefine((spec, context) => {
  const pointCount = spec.points
    ? spec.points.length
    : spec.clients.length * spec.objectSize.length * (spec.samples?.length ?? 1);
  if (pointCount > MAX_RUN_POINTS) {
    const what = coded(spec.points ? "pointsWord" : "sweepProduct");
    context.addIssue(
      codedIssue(
        coded("tooManyPoints", { what, count: pointCount, max: MAX_RUN_POINTS }),
        spec.points ? ["points"] : [],
      ),
    );
    return;
  }
  // s3bench's phases write each object with one PUT; a workload can write large ones in parts.
  if (!spec.workload) {
    spec.objectSize.forEach((bytes, index) => {
      if (bytes <= MAX_OBJECT_SIZE_BYTES) return;
      context.addIssue(
        codedIssue(
          coded("sizeAbovePutLimit"),
          spec.objectSize.length > 1 ? ["objectSize", index] : ["objectSize"],
        ),
      );
    });
  }
  spec.points?.forEach((point, index) => {
    if (point.samples < point.clients) {
      context.addIssue(
        codedIssue(
          coded("samplesBelowClients", { samples: point.samples, clients: point.clients }),
          ["points", index, "samples"],
        ),
      );
    }
  });
  if (spec.openLoop?.untilStopped) {
    untilStoppedProblems(spec).forEach((problem) => context.addIssue(problem));
    return;
  }
  // An open loop with a duration sends rate × duration requests; clients are its connections.
  if (spec.openLoop?.durationMs !== undefined) {
    if (spec.samples !== undefined) {
      context.addIssue(codedIssue(coded("samplesOrDuration"), ["samples"]));
    }
    return;
  }
  if (spec.samples === undefined) {
    context.addIssue(codedIssue(coded("required"), ["samples"]));
    return;
  }
  // Lists may be long: no spread into Math.min's arguments.
  const fewestSamples = spec.samples.reduce((a, b) => Math.min(a, b));
  const mostClients = spec.clients.reduce((a, b) => Math.max(a, b));
  if (fewestSamples < mostClients) {
    context.addIssue(
      codedIssue(
        coded("samplesBelowClientsEach", { samples: fewestSamples, clients: mostClients }),
        ["samples"],
      ),
    );
  }
});

/** Why an open loop until stopped cannot run as written. */
function untilStoppedProblems(spec: {
  workload?: unknown;
  samples?: unknown;
  points?: unknown;
  clients: readonly number[];
  objectSize: readonly number[];
  repeat: number;
  openLoop?: { durationMs?: number | undefined };
  untilSteady?: unknown;
}): ReturnType<typeof codedIssue>[] {
  const problems: ReturnType<typeof codedIssue>[] = [];
  const refuse = (path: (string | number)[], code: MessageCode & `untilStopped${string}`) =>
    problems.push(codedIssue(coded(code), path));
  if (spec.workload === undefined)
    refuse(["openLoop", "untilStopped"], "untilStoppedNeedsWorkload");
  if (spec.openLoop?.durationMs !== undefined) {
    refuse(["openLoop", "durationMs"], "untilStoppedOrDuration");
  }
  if (spec.samples !== undefined) refuse(["samples"], "untilStoppedNoSamples");
  if (spec.points !== undefined) refuse(["points"], "untilStoppedNoPoints");
  // The stop ends the run: a second point or repetition would never start.
  if (spec.clients.length > 1) refuse(["clients"], "untilStoppedOnePoint");
  if (spec.objectSize.length > 1) refuse(["objectSize"], "untilStoppedOnePoint");
  if (spec.repeat > 1) refuse(["repeat"], "untilStoppedOnce");
  if (spec.untilSteady !== undefined) refuse(["untilSteady"], "untilStoppedNotSteady");
  return problems;
}

export type RunSpec = z.output<typeof RunSpecSchema>;
export type RunSpecInput = z.input<typeof RunSpecSchema>;

/** The samples of a point whose open loop runs until stopped: no count is known in advance. */
export const UNTIL_STOPPED_SAMPLES = 0;

/** One cartesian point of a sweep. */
export const RunPointParamsSchema = z.object({
  clients: z.number().int().min(1),
  /** Requests per phase; UNTIL_STOPPED_SAMPLES (0) for an open loop until stopped. */
  samples: z.number().int().min(0),
  objectSizeBytes: z.number().int().min(1),
});
export type RunPointParams = z.infer<typeof RunPointParamsSchema>;
