import { HedgeOptionsSchema, runNameProblem, type RunSpecInput } from "@taillab/api";
import { maxSizeBytes, parseSizeDistribution } from "@taillab/core";
import {
  numberList,
  textList,
  UsageError,
  type FlagDefinition,
  type ParsedFlags,
} from "./cli-args.ts";
import { RESULTS_FLAG } from "./results-library.ts";
import { SHARD_FLAGS } from "./shard-flags.ts";
import { SECRET_FILE_FLAG } from "./secret-key-flag.ts";

/** The defaults the help states, read from the contract that applies them. */
const HEDGE_DEFAULTS = HedgeOptionsSchema.parse({});

export const RUN_FLAGS = [
  {
    name: "spec",
    aliases: [],
    takesValue: true,
    description: "run spec file (JSON); flags override it",
  },
  {
    name: "spec-json",
    aliases: [],
    takesValue: true,
    description:
      "run spec as JSON text, as a spec file holds it (how Kubernetes hands shards theirs)",
  },
  {
    name: "endpoint",
    aliases: [],
    takesValue: true,
    description:
      "S3 endpoint URL; several, comma-separated, serve one bucket (s3bench's -endpoint a,b: spread over them as --replicas); default: the embedded testbed",
  },
  { name: "bucket", aliases: [], takesValue: true, description: "bucket (default loadgen)" },
  { name: "region", aliases: [], takesValue: true, description: "region (default us-east-1)" },
  {
    name: "addressing",
    aliases: [],
    takesValue: true,
    description: "path (default) or virtual-host",
  },
  {
    name: "access-key",
    aliases: ["accessKey"],
    takesValue: true,
    description: "access key id (else AWS_ACCESS_KEY_ID)",
  },
  {
    name: "secret-key",
    aliases: ["accessSecret"],
    takesValue: true,
    description: "secret key (else AWS_SECRET_ACCESS_KEY); - reads it from standard input",
  },
  SECRET_FILE_FLAG,
  {
    name: "clients",
    aliases: ["numClients"],
    takesValue: true,
    description: "concurrent clients; a list (1,4,8) sweeps",
  },
  {
    name: "samples",
    aliases: ["numSamples"],
    takesValue: true,
    description: "requests per phase; a list sweeps",
  },
  {
    name: "size",
    aliases: ["objectSize"],
    takesValue: true,
    description:
      "object size: 1024, 32KiB, 1MiB, 4MB; a list sweeps; with --ops also uniform:A:B, lognormal:A:B, histogram:S=W,…",
  },
  {
    name: "prefix",
    aliases: ["objectNamePrefix"],
    takesValue: true,
    description: "key prefix (keys are PREFIX/RUNID/N)",
  },
  {
    name: "phases",
    aliases: [],
    takesValue: true,
    description: "phases to run (default write,read,cleanup)",
  },
  {
    name: "skip-cleanup",
    aliases: ["skipCleanup"],
    takesValue: false,
    description: "leave the objects in the bucket",
  },
  {
    name: "transport",
    aliases: [],
    takesValue: true,
    description: "fast (default: undici + SigV4) or sdk (@aws-sdk/client-s3)",
  },
  {
    name: "workers",
    aliases: [],
    takesValue: true,
    description: "worker threads (default: one per core but one)",
  },
  {
    name: "verify",
    aliases: [],
    takesValue: false,
    description: "check size and checksum of every object read",
  },
  {
    name: "create-bucket",
    aliases: [],
    takesValue: false,
    description:
      "create the bucket if it does not exist; it is kept afterwards (only the run's objects are removed)",
  },
  {
    name: "request-timeout",
    aliases: [],
    takesValue: true,
    description:
      "give up on a request not done after this long, counted as ClientTimeout (default 60s)",
  },
  {
    name: "ca-file",
    aliases: [],
    takesValue: true,
    description: "https: trust this CA (PEM file), e.g. a lab server's self-signed certificate",
  },
  {
    name: "insecure",
    aliases: [],
    takesValue: false,
    description: "https: accept any certificate, with no check at all (the run says so)",
  },
  {
    name: "replicas",
    aliases: [],
    takesValue: true,
    description: "endpoint URLs of replicas of one service (instead of --endpoint)",
  },
  {
    name: "mode",
    aliases: [],
    takesValue: true,
    description:
      "normal (default), hedged, tied (the client cancels the twin), tied-server (the replicas do) or adaptive",
  },
  {
    name: "hedge-delay",
    aliases: [],
    takesValue: true,
    description: "backup after a fixed delay (30ms) or a percentile (p95, default)",
  },
  {
    name: "hedge-budget",
    aliases: [],
    takesValue: true,
    description: `most extra requests from backups (default ${HEDGE_DEFAULTS.budgetPercent}%)`,
  },
  {
    name: "tied-delay",
    aliases: [],
    takesValue: true,
    description: "tied, tied-server: second copy after this delay (default 0ms)",
  },
  {
    name: "replica-choice",
    aliases: [],
    takesValue: true,
    description: "round-robin (default) or least-outstanding",
  },
  {
    name: "rate",
    aliases: [],
    takesValue: true,
    description: "open loop at this rate (500/s) instead of the closed loop",
  },
  {
    name: "arrivals",
    aliases: [],
    takesValue: true,
    description: "open loop: fixed (default) or poisson",
  },
  {
    name: "duration",
    aliases: [],
    takesValue: true,
    description: "open loop: requests per phase = rate × duration (30s)",
  },
  {
    name: "until-steady",
    aliases: [],
    takesValue: false,
    description:
      "end each phase (not the cleanup) once its p99 is steady: its 95 % interval and the figure within ±5 %, and ops/s too, for 2s; samples or --duration are the maximum",
  },
  {
    name: "steady-percentile",
    aliases: [],
    takesValue: true,
    description: "--until-steady: the percentile that must be steady (default p99)",
  },
  {
    name: "steady-within",
    aliases: [],
    takesValue: true,
    description: "--until-steady: the tolerance (default 5%)",
  },
  {
    name: "steady-for",
    aliases: [],
    takesValue: true,
    description: "--until-steady: how long it must hold (default 2s)",
  },
  {
    name: "preset",
    aliases: [],
    takesValue: true,
    description:
      "start from a preset (taillab presets lists them); the spec file and flags override it",
  },
  {
    name: "scale",
    aliases: [],
    takesValue: true,
    description: "shrink a preset's object sizes to fit a laptop, 0 < scale ≤ 1 (default 1)",
  },
  {
    name: "ops",
    aliases: [],
    takesValue: true,
    description: "a mixed workload: get:70,put:20,delete:5,list:5 (also head, copy, multipart)",
  },
  {
    name: "prepare",
    aliases: [],
    takesValue: true,
    description: "mixed workload: objects written first, not measured (default 1000)",
  },
  {
    name: "keys",
    aliases: [],
    takesValue: true,
    description: "mixed workload: which object a read uses: uniform, sequential, zipf:1.1",
  },
  {
    name: "range",
    aliases: [],
    takesValue: true,
    description: "mixed workload: ranged GETs: random:1MiB or fixed:OFFSET:LENGTH",
  },
  {
    name: "warmup",
    aliases: [],
    takesValue: true,
    description: "mixed workload: requests in the first 10s run but are not counted",
  },
  {
    name: "repeat",
    aliases: [],
    takesValue: true,
    description:
      "run each point k times: each reported, and the trimmed mean (max and min dropped)",
  },
  {
    name: "multipart-parallel",
    aliases: [],
    takesValue: true,
    description: "mixed workload: parts of one multipart upload in flight (default 4)",
  },
  {
    name: "total-bytes",
    aliases: [],
    takesValue: true,
    description: "mixed workload: stop once this much was written and read (e.g. 1GiB)",
  },
  {
    name: "multipart-part",
    aliases: [],
    takesValue: true,
    description: "mixed workload: multipart part size (default 8MiB, at least 5MiB)",
  },
  {
    name: "testbed-profile",
    aliases: [],
    takesValue: true,
    description: "embedded testbed: fast (default), steady, stalls, queue, noisy-neighbour",
  },
  {
    name: "testbed-replicas",
    aliases: [],
    takesValue: true,
    description: "embedded testbed: replicas on their own ports (default 1)",
  },
  {
    name: "testbed-seed",
    aliases: [],
    takesValue: true,
    description: "embedded testbed: seed of its latency profile (default 1)",
  },
  {
    name: "verbose",
    aliases: [],
    takesValue: false,
    description: "s3bench's -verbose: a line per answered request as it answers",
  },
  {
    name: "details",
    aliases: [],
    takesValue: false,
    description:
      "with s3bench's flags: TailLab's figures after s3bench's text (p99.9, where the time went, client health, cleanup, run id)",
  },
  { name: "json", aliases: [], takesValue: false, description: "print the summary as JSON" },
  {
    name: "threshold",
    aliases: [],
    takesValue: true,
    repeatable: true,
    description:
      "a condition the run must meet, repeatable: 'GET p99.9<50ms', 'PUT ops/s>800', 'errors<0.1%', 'client-bound=false'; '…@ci': the whole 95 % interval",
  },
  {
    name: "junit",
    aliases: [],
    takesValue: true,
    description: "write the thresholds as JUnit XML to FILE (one test case each)",
  },
  {
    name: "metrics",
    aliases: [],
    takesValue: true,
    description:
      "serve live figures for Prometheus at http://HOST:PORT/metrics while the run goes on (OpenMetrics; e.g. 127.0.0.1:9464)",
  },
  {
    name: "out",
    aliases: [],
    takesValue: true,
    description: "write DIR/summary.json and DIR/requests.csv",
  },
  {
    name: "name",
    aliases: [],
    takesValue: true,
    description: "name of the run in the results library",
  },
  RESULTS_FLAG,
  ...SHARD_FLAGS,
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const satisfies readonly FlagDefinition[];

export type RunFlagName = (typeof RUN_FLAGS)[number]["name"];
export type RunFlags = ParsedFlags<RunFlagName>;

/** s3bench's flags (s3bench.go lines 31–41), named as it names them: Go's are case-sensitive. */
const S3BENCH_FLAG_NAMES = new Set([
  "endpoint",
  "region",
  "accessKey",
  "accessSecret",
  "bucket",
  "objectNamePrefix",
  "objectSize",
  "numClients",
  "numSamples",
  "skipCleanup",
  "verbose",
]);
/** Of those, the names TailLab's long forms share: only a single dash makes them s3bench's. */
const SHARED_FLAG_NAMES = new Set(["endpoint", "region", "bucket"]);

/**
 * Whether a command line is written as s3bench's, which then prints s3bench's text: one of
 * s3bench's own names (`-numClients`, `--accessKey`, `-verbose`), or a shared one with s3bench's
 * single dash (`-endpoint`; `--endpoint` is TailLab's).
 */
export function writtenAsS3bench(written: readonly string[]): boolean {
  return written.some((flag) => {
    const name = flag.replace(/^--?/, "");
    const singleDash = !flag.startsWith("--");
    return S3BENCH_FLAG_NAMES.has(name) && (singleDash || !SHARED_FLAG_NAMES.has(name));
  });
}

/** `uniform:…`, `lognormal:…`, `histogram:…`: object sizes drawn per key, for --ops workloads. */
const SIZE_DISTRIBUTION = /^(uniform|lognormal|histogram):/i;

/**
 * Variables that carry secrets given on the command line: the spec only refers to them. Their
 * names are credential names (api's credential-variables.ts), as every spec's must be.
 */
/** `--name`, by the library's one rule for run names (api's runNameProblem), trimmed. */
export function runNameFlag(flags: Partial<Record<"name", string | true>>): { name?: string } {
  if (typeof flags.name !== "string") return {};
  const problem = runNameProblem(flags.name);
  if (problem !== null) throw new UsageError("name", problem);
  return { name: flags.name.trim() };
}

/** The spec's own thresholds, then each --threshold, in the order given. */
export function withThresholdFlags<Spec extends { thresholds?: unknown }>(
  spec: Spec,
  flagged: readonly string[] | undefined,
): Spec {
  if (!flagged) return spec;
  const fromSpec = Array.isArray(spec.thresholds) ? spec.thresholds : [];
  return { ...spec, thresholds: [...fromSpec, ...flagged] };
}

export const CLI_ACCESS_KEY_VAR = "CLI_ACCESS_KEY_ID";
export const CLI_SECRET_KEY_VAR = "CLI_SECRET_ACCESS_KEY";

const value = (flags: RunFlags, name: RunFlagName): string | undefined => {
  const found = flags[name];
  return typeof found === "string" ? found : undefined;
};

/** Flags that describe the endpoint --endpoint (or --replicas, or the spec file) names. */
const ENDPOINT_DETAIL_FLAGS = [
  "region",
  "addressing",
  "ca-file",
  "insecure",
  "access-key",
] as const;

/**
 * Without an endpoint the embedded testbed is started, on its own port, with its own keys and
 * over plain http: a flag that describes an endpoint has none to describe.
 */
function refuseWithoutEndpoint(flags: RunFlags): never {
  const flag = ENDPOINT_DETAIL_FLAGS.find((name) => flags[name] !== undefined) ?? "endpoint";
  throw new UsageError(
    flag,
    `--${flag} describes the endpoint --endpoint URL names; without --endpoint the embedded testbed is started, which takes none`,
  );
}

/** Overlays flags on a spec file's contents; validation happens once, on the result. */
export function specFromFlags(flags: RunFlags, fileSpec: Record<string, unknown>): RunSpecInput {
  const spec: Record<string, unknown> = { ...fileSpec };
  const endpointUrl = value(flags, "endpoint");
  const accessKey = value(flags, "access-key");
  const secretKey = value(flags, "secret-key");
  if ((accessKey === undefined) !== (secretKey === undefined)) {
    throw new UsageError(
      accessKey === undefined ? "access-key" : "secret-key",
      "give both -accessKey and -accessSecret, or neither",
    );
  }
  const endpointFlags = {
    ...(endpointUrl !== undefined ? { url: endpointUrl } : {}),
    ...(value(flags, "region") !== undefined ? { region: value(flags, "region") } : {}),
    ...(value(flags, "addressing") !== undefined ? { addressing: value(flags, "addressing") } : {}),
    ...(value(flags, "ca-file") !== undefined ? { caFile: value(flags, "ca-file") } : {}),
    ...(flags.insecure ? { insecure: true } : {}),
    ...(accessKey !== undefined
      ? {
          credentials: {
            kind: "env",
            accessKeyIdVar: CLI_ACCESS_KEY_VAR,
            secretAccessKeyVar: CLI_SECRET_KEY_VAR,
          },
        }
      : {}),
  };
  const replicaUrls = value(flags, "replicas");
  if (replicaUrls !== undefined && endpointUrl !== undefined) {
    throw new UsageError("replicas", "give either --endpoint or --replicas, not both");
  }
  // s3bench's -endpoint takes a comma-separated list, endpoints of one bucket: replicas.
  const urls = [textList(replicaUrls ?? endpointUrl ?? "")].flat();
  if (urls.length > 1 || replicaUrls !== undefined) {
    spec.endpoints = urls.map((url) => ({ ...endpointFlags, url }));
  } else if (Object.keys(endpointFlags).length > 0) {
    const fromFile = Array.isArray(spec.endpoints) ? (spec.endpoints[0] as object) : {};
    if (!("url" in fromFile) && endpointUrl === undefined) refuseWithoutEndpoint(flags);
    spec.endpoints = [{ ...fromFile, ...endpointFlags }];
  }
  const assign = (name: RunFlagName, field: string, convert: (text: string) => unknown) => {
    const text = value(flags, name);
    if (text !== undefined) spec[field] = convert(text);
  };
  assign("bucket", "bucket", (text) => text);
  assign("prefix", "keyPrefix", (text) => text);
  assign("clients", "clients", numberList);
  assign("samples", "samples", numberList);
  const sizeText = value(flags, "size");
  if (sizeText !== undefined && SIZE_DISTRIBUTION.test(sizeText)) {
    if (value(flags, "ops") === undefined && spec.workload === undefined) {
      throw new UsageError(
        "size",
        `"${sizeText}" is a size distribution, which sizes a mixed workload's objects: add --ops, e.g. --ops get:70,put:30`,
      );
    }
    const distribution = parseSizeDistribution(sizeText);
    if (!distribution.ok) throw new UsageError("size", distribution.reason);
    // A distribution sizes a mixed workload's objects; the point records the largest size.
    spec.workload = { ...((spec.workload ?? {}) as object), sizes: sizeText };
    spec.objectSize = maxSizeBytes(distribution.value);
  } else {
    assign("size", "objectSize", textList);
  }
  assign("phases", "phases", (text) => [textList(text)].flat());
  assign("transport", "transport", (text) => text);
  assign("request-timeout", "requestTimeoutMs", (text) => text);
  assign("workers", "workers", numberList);
  assign("repeat", "repeat", (text) => numberList(text));
  if (flags["skip-cleanup"]) {
    const phases = spec.phases === undefined ? ["write", "read", "cleanup"] : [spec.phases].flat();
    spec.phases = phases.filter((phase) => phase !== "cleanup");
  }
  assign("mode", "mode", (text) => text);
  assign("replica-choice", "replicaChoice", (text) => text);
  const section = (field: string) => (spec[field] ?? {}) as Record<string, unknown>;
  const assignIn = (
    name: RunFlagName,
    field: string,
    key: string,
    convert = (t: string): unknown => t,
  ) => {
    const text = value(flags, name);
    if (text !== undefined) spec[field] = { ...section(field), [key]: convert(text) };
  };
  assignIn("hedge-delay", "hedge", "delay");
  assignIn("hedge-budget", "hedge", "budgetPercent");
  assignIn("tied-delay", "hedge", "tiedDelayMs");
  assignIn("rate", "openLoop", "rateHz");
  assignIn("arrivals", "openLoop", "arrivals");
  // --duration bounds the open loop when there is a rate, else a mixed workload.
  const mixed = value(flags, "ops") !== undefined || spec.workload !== undefined;
  const durationBounds = value(flags, "rate") === undefined && mixed ? "workload" : "openLoop";
  assignIn("duration", durationBounds, "durationMs");
  assignIn("ops", "workload", "ops");
  assignIn("prepare", "workload", "prepareObjects", numberList);
  assignIn("keys", "workload", "keys");
  assignIn("range", "workload", "range");
  assignIn("warmup", "workload", "warmupMs");
  assignIn("multipart-part", "workload", "multipartPartBytes");
  assignIn("multipart-parallel", "workload", "multipartPartsInFlight", numberList);
  assignIn("total-bytes", "workload", "totalBytes");
  assignIn("testbed-profile", "testbed", "profile");
  assignIn("testbed-replicas", "testbed", "replicas", numberList);
  assignIn("testbed-seed", "testbed", "seed", numberList);
  if (flags["until-steady"]) spec.untilSteady = section("untilSteady");
  const steadyDetail = (["steady-percentile", "steady-within", "steady-for"] as const).find(
    (name) => flags[name] !== undefined,
  );
  if (steadyDetail && spec.untilSteady === undefined) {
    throw new UsageError(steadyDetail, "tunes --until-steady: add --until-steady");
  }
  assignIn("steady-percentile", "untilSteady", "percentile");
  assignIn("steady-within", "untilSteady", "tolerancePercent");
  assignIn("steady-for", "untilSteady", "holdMs");
  if (flags.verify) spec.verify = true;
  if (flags["create-bucket"]) spec.createBucket = true;
  return spec as RunSpecInput;
}

/** Keys given as flags, as the variables a spec made from these flags refers to. */
export function cliSecrets(
  flags: ParsedFlags<"access-key" | "secret-key">,
): Record<string, string> {
  const accessKey = flags["access-key"];
  const secretKey = flags["secret-key"];
  if (typeof accessKey !== "string" || typeof secretKey !== "string") return {};
  return { [CLI_ACCESS_KEY_VAR]: accessKey, [CLI_SECRET_KEY_VAR]: secretKey };
}
