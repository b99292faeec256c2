import { DEFAULT_BARRIER_TIMEOUT_MS } from "@taillab/backend";
import {
  parseRunFolderUri,
  parseShardRole,
  type RunFolderUri,
  type ShardRole,
} from "@taillab/core";
import { durationValue, flagValue, UsageError, type FlagDefinition } from "./cli-args.ts";

/** `taillab run`'s flags for one shard of a distributed run. */
export const SHARD_FLAGS = [
  {
    name: "shard",
    aliases: [],
    takesValue: true,
    description:
      "distributed run: run shard I/N of the spec (with --start-at and --results s3://BUCKET/PREFIX/RUN/)",
  },
  {
    name: "start-at",
    aliases: [],
    takesValue: true,
    description: "distributed run: the earliest start, the same for every shard (ISO 8601)",
  },
  {
    name: "barrier-timeout",
    aliases: [],
    takesValue: true,
    description:
      "distributed run: shards not ready this long after --start-at are missing and the run is aborted; between phases, shards wait as long for a slower one",
    value: durationValue(DEFAULT_BARRIER_TIMEOUT_MS),
  },
  {
    name: "upload-records",
    aliases: [],
    takesValue: false,
    description: "distributed run: upload every request's record beside the shard's result",
  },
] as const satisfies readonly FlagDefinition[];

/** What makes `taillab run` a shard, checked before anything is created. */
export interface ShardFlags {
  role: ShardRole;
  folder: RunFolderUri;
  startAtMs: number;
  barrierTimeoutMs: number;
  uploadRecords: boolean;
  /** Test hook (CLOCK_SKEW_VARIABLE): how far this shard's clock is made to be off, ms. */
  clockSkewMs: number;
}

/**
 * A test hook, not a setting: a shard reads its clock this many ms ahead of the machine's
 * (negative: behind), as a machine whose clock is off would, so a test can show the start
 * barrier refusing it (exit 3) on one machine.
 */
export const CLOCK_SKEW_VARIABLE = "TAILLAB_TEST_CLOCK_SKEW_MS";

type Flags = Partial<
  Record<
    "shard" | "start-at" | "barrier-timeout" | "results" | "upload-records" | "out",
    string | true
  >
>;

/** Null for a run on this machine alone; s3:// results without --shard are a mistake. */
export function shardFlagsOf(
  flags: Flags,
  env: Record<string, string | undefined> = process.env,
): ShardFlags | null {
  const results = typeof flags.results === "string" ? flags.results : undefined;
  const isFolderUri = results?.startsWith("s3://") ?? false;
  if (typeof flags.shard !== "string") {
    for (const name of ["start-at", "barrier-timeout", "upload-records"] as const) {
      if (flags[name] !== undefined)
        throw new UsageError(name, "is for a shard of a distributed run: add --shard I/N");
    }
    if (isFolderUri) {
      throw new UsageError(
        "results",
        "an s3:// folder is where the shards of a distributed run meet: add --shard I/N",
      );
    }
    return null;
  }
  const role = parseShardRole(flags.shard);
  if ("problem" in role) throw new UsageError("shard", role.problem);
  if (results === undefined || !isFolderUri) {
    throw new UsageError(
      "results",
      "a shard leaves its results in the run's folder: give --results s3://BUCKET/PREFIX/RUN/",
    );
  }
  const folder = parseRunFolderUri(results);
  if ("problem" in folder) throw new UsageError("results", folder.problem);
  if (flags.out !== undefined) {
    throw new UsageError(
      "out",
      "a shard writes its results to the run's folder in the bucket; merge them with taillab merge",
    );
  }
  return {
    role,
    folder,
    startAtMs: startAtOf(flags["start-at"]),
    barrierTimeoutMs: flagValue(SHARD_FLAGS, flags, "barrier-timeout"),
    uploadRecords: flags["upload-records"] === true,
    clockSkewMs: clockSkewOf(env[CLOCK_SKEW_VARIABLE]),
  };
}

function clockSkewOf(text: string | undefined): number {
  if (text === undefined || text === "") return 0;
  if (!/^-?\d+$/.test(text)) {
    throw new UsageError(
      CLOCK_SKEW_VARIABLE,
      `expected whole milliseconds such as 3000 or -3000, got "${text}"`,
    );
  }
  return Number(text);
}

/** `--start-at`'s instant, epoch ms; a missing or malformed one is refused at the flag. */
export function startAtOf(text: string | true | undefined): number {
  if (typeof text !== "string") {
    throw new UsageError(
      "start-at",
      "every shard needs the same earliest start, e.g. --start-at 2026-11-24T10:00:00Z",
    );
  }
  const ms = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || !Number.isFinite(ms)) {
    throw new UsageError(
      "start-at",
      `expected an ISO 8601 time such as 2026-11-24T10:00:00Z, got "${text}"`,
    );
  }
  return ms;
}
