import {
  formatByteSize,
  InputError,
  MIX_WORDS,
  runNameProblem,
  type HedgeDelaySpec,
  type RunSpecInput,
} from "@taillab/api";
import { maxSizeBytes, parseSizeDistribution } from "@taillab/core";
import {
  numberList,
  textList,
  UsageError,
  writtenDuration,
  type FlagDefinition,
  type FlagValue,
  type ParsedFlags,
  type SpecTarget,
} from "./cli-args.ts";
import { RESULTS_FLAG } from "./results-library.ts";
import { SHARD_FLAGS } from "./shard-flags.ts";
import { SECRET_FILE_FLAG } from "./secret-key-flag.ts";

function writtenPercent(percent: number): string {
  return `${percent}%`;
}

function writtenPercentile(level: number): string {
  return `p${level}`;
}

function writtenHedgeDelay(delay: HedgeDelaySpec): string {
  return delay.kind === "percentile"
    ? writtenPercentile(delay.percentile)
    : writtenDuration(delay.delayMs);
}

/** `--scale`: how far a preset's object sizes shrink, 0 < scale ≤ 1. */
const PRESET_SCALE: FlagValue<number> = {
  default: 1,
  parse: (text, flag) => {
    const scale = Number(text);
    if (!(scale > 0 && scale <= 1)) {
      throw new UsageError(flag, `expected a number above 0 and at most 1, got "${text}"`);
    }
    return scale;
  },
};

/**
 * `taillab run`'s flags, one entry each: its names, the run spec field it sets and how, and its
 * help. The help's defaults are the spec schema's (cli-args.ts's flagDefault), so they cannot
 * disagree; a flag that sets a field needs no code beyond its entry.
 */
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
    spec: { field: "endpoints.url", placedByCommand: true },
  },
  {
    name: "bucket",
    aliases: [],
    takesValue: true,
    description: "bucket",
    spec: { field: "bucket" },
  },
  {
    name: "region",
    aliases: [],
    takesValue: true,
    description: "region",
    spec: { field: "endpoints.region" },
  },
  {
    name: "addressing",
    aliases: [],
    takesValue: true,
    description: "path or virtual-host",
    spec: { field: "endpoints.addressing" },
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
    spec: { field: "clients", convert: numberList },
  },
  {
    name: "samples",
    aliases: ["numSamples"],
    takesValue: true,
    description: "requests per phase; a list sweeps",
    spec: { field: "samples", convert: numberList },
  },
  {
    name: "size",
    aliases: ["objectSize"],
    takesValue: true,
    description:
      "object size: 1024, 32KiB, 1MiB, 4MB; a list sweeps; with --ops also uniform:A:B, lognormal:A:B, histogram:S=W,…",
    spec: { field: "objectSize", otherFields: ["workload.sizes"], placedByCommand: true },
  },
  {
    name: "prefix",
    aliases: ["objectNamePrefix"],
    takesValue: true,
    description: "key prefix (keys are PREFIX/RUNID/N)",
    spec: { field: "keyPrefix" },
  },
  {
    name: "phases",
    aliases: [],
    takesValue: true,
    description: "phases to run",
    spec: { field: "phases", convert: (text) => [textList(text)].flat() },
  },
  {
    name: "skip-cleanup",
    aliases: ["skipCleanup"],
    takesValue: false,
    description: "leave the objects in the bucket",
    spec: { field: "phases", placedByCommand: true },
  },
  {
    name: "transport",
    aliases: [],
    takesValue: true,
    description: "fast (undici + SigV4) or sdk (@aws-sdk/client-s3)",
    spec: { field: "transport" },
  },
  {
    name: "workers",
    aliases: [],
    takesValue: true,
    description: "worker threads (default: one per core but one)",
    spec: { field: "workers", convert: numberList },
  },
  {
    name: "verify",
    aliases: [],
    takesValue: false,
    description: "check size and checksum of every object read",
    spec: { field: "verify" },
  },
  {
    name: "create-bucket",
    aliases: [],
    takesValue: false,
    description:
      "create the bucket if it does not exist; it is kept afterwards (only the run's objects are removed)",
    spec: { field: "createBucket" },
  },
  {
    name: "request-timeout",
    aliases: [],
    takesValue: true,
    description: "give up on a request not done after this long, counted as ClientTimeout",
    spec: { field: "requestTimeoutMs", writeDefault: writtenDuration },
  },
  {
    name: "ca-file",
    aliases: [],
    takesValue: true,
    description: "https: trust this CA (PEM file), e.g. a lab server's self-signed certificate",
    spec: { field: "endpoints.caFile" },
  },
  {
    name: "insecure",
    aliases: [],
    takesValue: false,
    description: "https: accept any certificate, with no check at all (the run says so)",
    spec: { field: "endpoints.insecure" },
  },
  {
    name: "replicas",
    aliases: [],
    takesValue: true,
    description: "endpoint URLs of replicas of one service (instead of --endpoint)",
    spec: { field: "endpoints.url", placedByCommand: true },
  },
  {
    name: "mode",
    aliases: [],
    takesValue: true,
    description:
      "normal, hedged, tied (the client cancels the twin), tied-server (the replicas do) or adaptive",
    spec: { field: "mode" },
  },
  {
    name: "hedge-delay",
    aliases: [],
    takesValue: true,
    description: "backup after a fixed delay (30ms) or a percentile (p95)",
    spec: { field: "hedge.delay", writeDefault: writtenHedgeDelay },
  },
  {
    name: "hedge-budget",
    aliases: [],
    takesValue: true,
    description: "most extra requests from backups",
    spec: { field: "hedge.budgetPercent", writeDefault: writtenPercent },
  },
  {
    name: "tied-delay",
    aliases: [],
    takesValue: true,
    description: "tied, tied-server: second copy after this delay",
    spec: { field: "hedge.tiedDelayMs", writeDefault: writtenDuration },
  },
  {
    name: "replica-choice",
    aliases: [],
    takesValue: true,
    description: "round-robin or least-outstanding",
    spec: { field: "replicaChoice" },
  },
  {
    name: "rate",
    aliases: [],
    takesValue: true,
    description: "open loop at this rate (500/s) instead of the closed loop",
    spec: { field: "openLoop.rateHz" },
  },
  {
    name: "arrivals",
    aliases: [],
    takesValue: true,
    description: "open loop: fixed or poisson",
    spec: { field: "openLoop.arrivals" },
  },
  {
    name: "duration",
    aliases: [],
    takesValue: true,
    description: "open loop: requests per phase = rate × duration (30s)",
    spec: {
      field: "openLoop.durationMs",
      otherFields: ["workload.durationMs"],
      placedByCommand: true,
    },
  },
  {
    name: "until-steady",
    aliases: [],
    takesValue: false,
    description:
      "end each phase (not the cleanup) once its --steady-percentile is steady: its 95 % interval and the figure within --steady-within, and ops/s too, for --steady-for; samples or --duration are the maximum",
    spec: { field: "untilSteady", placedByCommand: true },
  },
  {
    name: "steady-percentile",
    aliases: [],
    takesValue: true,
    description: "--until-steady: the percentile that must be steady",
    spec: { field: "untilSteady.percentile", writeDefault: writtenPercentile },
  },
  {
    name: "steady-within",
    aliases: [],
    takesValue: true,
    description: "--until-steady: the tolerance",
    spec: { field: "untilSteady.tolerancePercent", writeDefault: writtenPercent },
  },
  {
    name: "steady-for",
    aliases: [],
    takesValue: true,
    description: "--until-steady: how long it must hold",
    spec: { field: "untilSteady.holdMs", writeDefault: writtenDuration },
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
    description: "shrink a preset's object sizes to fit a laptop, 0 < scale ≤ 1",
    value: PRESET_SCALE,
  },
  {
    name: "ops",
    aliases: [],
    takesValue: true,
    description: `a mixed workload: get:70,put:20,delete:5,list:5 (of ${MIX_WORDS.join(", ")})`,
    spec: { field: "workload.ops" },
  },
  {
    name: "prepare",
    aliases: [],
    takesValue: true,
    description: "mixed workload: objects written first, not measured",
    spec: { field: "workload.prepareObjects", convert: numberList },
  },
  {
    name: "keys",
    aliases: [],
    takesValue: true,
    description: "mixed workload: which object a read uses: uniform, sequential, zipf:1.1",
    spec: { field: "workload.keys" },
  },
  {
    name: "range",
    aliases: [],
    takesValue: true,
    description: "mixed workload: ranged GETs: random:1MiB or fixed:OFFSET:LENGTH",
    spec: { field: "workload.range" },
  },
  {
    name: "warmup",
    aliases: [],
    takesValue: true,
    description: "mixed workload: requests started this soon (10s) run but are not counted",
    spec: { field: "workload.warmupMs", writeDefault: writtenDuration },
  },
  {
    name: "repeat",
    aliases: [],
    takesValue: true,
    description:
      "run each point k times: each reported, and the trimmed mean (max and min dropped)",
    spec: { field: "repeat", convert: numberList },
  },
  {
    name: "multipart-parallel",
    aliases: [],
    takesValue: true,
    description: "mixed workload: parts of one multipart upload in flight",
    spec: { field: "workload.multipartPartsInFlight", convert: numberList },
  },
  {
    name: "total-bytes",
    aliases: [],
    takesValue: true,
    description: "mixed workload: stop once this much was written and read (e.g. 1GiB)",
    spec: { field: "workload.totalBytes" },
  },
  {
    name: "multipart-part",
    aliases: [],
    takesValue: true,
    description: "mixed workload: multipart part size, at least 5MiB",
    spec: { field: "workload.multipartPartBytes", writeDefault: formatByteSize },
  },
  {
    name: "testbed-profile",
    aliases: [],
    takesValue: true,
    description: "embedded testbed: fast, steady, stalls, queue, noisy-neighbour",
    spec: { field: "testbed.profile" },
  },
  {
    name: "testbed-replicas",
    aliases: [],
    takesValue: true,
    description: "embedded testbed: replicas on their own ports",
    spec: { field: "testbed.replicas", convert: numberList },
  },
  {
    name: "testbed-seed",
    aliases: [],
    takesValue: true,
    description: "embedded testbed: seed of its latency profile",
    spec: { field: "testbed.seed", convert: numberList },
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
    spec: { field: "thresholds", placedByCommand: true },
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

/** The run spec field each flag sets, by flag. */
const SPEC_TARGETS = new Map<RunFlagName, SpecTarget>(
  RUN_FLAGS.flatMap((flag) => ("spec" in flag ? [[flag.name, flag.spec] as const] : [])),
);

/** Flags that describe the endpoint --endpoint (or --replicas, or the spec file) names. */
const ENDPOINT_DETAIL_FLAGS = [
  ...[...SPEC_TARGETS]
    .filter(([, target]) => target.field.startsWith("endpoints.") && !target.placedByCommand)
    .map(([name]) => name),
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

/**
 * Overlays flags on a spec file's contents; validation happens once, on the result. A flag is
 * placed where its entry's spec field says; the few whose place depends on other flags, below.
 */
export function specFromFlags(flags: RunFlags, fileSpec: Record<string, unknown>): RunSpecInput {
  const spec: Record<string, unknown> = { ...fileSpec };
  const section = (field: string) => (spec[field] ?? {}) as Record<string, unknown>;
  const endpointFlags: Record<string, unknown> = {};
  for (const [name, target] of SPEC_TARGETS) {
    const given = flags[name];
    if (given === undefined || target.placedByCommand) continue;
    const fieldValue = given === true ? true : (target.convert ?? ((text) => text))(given);
    const [field = "", key] = target.field.split(".");
    if (key === undefined) spec[field] = fieldValue;
    else if (field === "endpoints") endpointFlags[key] = fieldValue;
    else spec[field] = { ...section(field), [key]: fieldValue };
  }
  const endpointUrl = value(flags, "endpoint");
  const accessKey = value(flags, "access-key");
  const secretKey = value(flags, "secret-key");
  if ((accessKey === undefined) !== (secretKey === undefined)) {
    throw new UsageError(
      accessKey === undefined ? "access-key" : "secret-key",
      "give both -accessKey and -accessSecret, or neither",
    );
  }
  if (endpointUrl !== undefined) endpointFlags.url = endpointUrl;
  if (accessKey !== undefined) {
    endpointFlags.credentials = {
      kind: "env",
      accessKeyIdVar: CLI_ACCESS_KEY_VAR,
      secretAccessKeyVar: CLI_SECRET_KEY_VAR,
    };
  }
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
  const mixed = value(flags, "ops") !== undefined || fileSpec.workload !== undefined;
  const sizeText = value(flags, "size");
  if (sizeText !== undefined && SIZE_DISTRIBUTION.test(sizeText)) {
    if (!mixed) {
      throw new UsageError(
        "size",
        `"${sizeText}" is a size distribution, which sizes a mixed workload's objects: add --ops, e.g. --ops get:70,put:30`,
      );
    }
    const distribution = parseSizeDistribution(sizeText);
    if (!distribution.ok) throw new UsageError("size", distribution.reason);
    // A distribution sizes a mixed workload's objects; the point records the largest size.
    spec.workload = { ...section("workload"), sizes: sizeText };
    spec.objectSize = maxSizeBytes(distribution.value);
  } else if (sizeText !== undefined) {
    spec.objectSize = textList(sizeText);
  }
  if (flags["skip-cleanup"]) {
    const phases = spec.phases === undefined ? ["write", "read", "cleanup"] : [spec.phases].flat();
    spec.phases = phases.filter((phase) => phase !== "cleanup");
  }
  // --duration bounds the open loop when there is a rate, else a mixed workload.
  const durationText = value(flags, "duration");
  if (durationText !== undefined) {
    const bounded = value(flags, "rate") === undefined && mixed ? "workload" : "openLoop";
    spec[bounded] = { ...section(bounded), durationMs: durationText };
  }
  const steadyDetail = (["steady-percentile", "steady-within", "steady-for"] as const).find(
    (name) => flags[name] !== undefined,
  );
  if (steadyDetail && !flags["until-steady"] && fileSpec.untilSteady === undefined) {
    throw new UsageError(steadyDetail, "tunes --until-steady: add --until-steady");
  }
  if (flags["until-steady"]) spec.untilSteady = section("untilSteady");
  return spec as RunSpecInput;
}

/**
 * The flag given that set a spec field (`openLoop.rateHz`: rate), so a bad value names both; none
 * for a field named as its flag (`clients`) or set by no flag given.
 */
export function flagOfField(field: string, flags: RunFlags): RunFlagName | undefined {
  const path = field.replace(/\[\d+\]/g, "");
  const [setBy] = [...SPEC_TARGETS]
    .flatMap(([name, target]) =>
      flags[name] === undefined
        ? []
        : [target.field, ...(target.otherFields ?? [])]
            .filter((set) => path === set || path.startsWith(`${set}.`))
            .map((set) => [name, set] as const),
    )
    .sort(([, a], [, b]) => b.length - a.length);
  return setBy === undefined || setBy[0] === path ? undefined : setBy[0];
}

/**
 * `work`, each of its problems ending with the flag that set its field: `openLoop.rateHz: expected
 * at most 10000000 requests per second (from --rate)`. The field comes first, as everywhere.
 */
export async function namingFlags<Result>(
  flags: RunFlags,
  work: () => Promise<Result>,
): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(
      error.problems.map((problem) => {
        const flag = flagOfField(problem.field, flags);
        return flag === undefined
          ? problem
          : { ...problem, message: `${problem.message} (from --${flag})` };
      }),
    );
  }
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
