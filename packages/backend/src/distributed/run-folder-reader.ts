import {
  formatFieldErrors,
  parseFields,
  ShardProgressSchema,
  ShardResultSchema,
  type FieldError,
  type ShardProgress,
  type ShardResult,
} from "@taillab/api";
import {
  ABORT_PREFIX,
  parseAbort,
  parseReadyAt,
  READY_AT_PREFIX,
  STOP_KEY,
} from "./barrier-markers.ts";
import type { MarkerStore } from "./bucket-markers.ts";
import {
  DONE_PREFIX,
  PROGRESS_PREFIX,
  progressKey,
  resultKey,
  shardOfName,
  SHARD_RESULT_LIMIT_BYTES,
  SHARDS_PREFIX,
} from "./run-folder-layout.ts";

/** What a distributed run's folder holds about its shards, as of one look. */
export interface RunFolderSnapshot {
  /** Ready time (epoch ms) by shard, from the barrier's ready-at markers. */
  readyAtMs: Map<number, number>;
  /**
   * Shards with more than one ready-at marker: two processes ran as that shard (a server that
   * let both claim its index), so its result is one of theirs, overwritten by the other.
   */
  readyTwice: number[];
  /** Shards that gave up at the barrier. */
  aborted: Set<number>;
  /** The run was stopped by whoever started it (abort/stop). */
  stopped: boolean;
  /** Shards that wrote everything they will. */
  done: Set<number>;
  progress: ShardProgress[];
  results: ShardResult[];
  /** Objects that are not what their name says (another version, damaged), one line each. */
  unreadable: string[];
}

/**
 * Reads the run's folder: markers by listing, then the progress objects (live views) and the
 * results (merge) it is asked for, each checked against the contract.
 */
export async function readRunFolder(
  markers: MarkerStore,
  read: { progress: boolean; results: boolean },
): Promise<RunFolderSnapshot> {
  const [readyNames, abortNames, doneNames, progressNames, shardNames] = await Promise.all([
    markers.list(READY_AT_PREFIX),
    markers.list(ABORT_PREFIX),
    markers.list(DONE_PREFIX),
    read.progress ? markers.list(PROGRESS_PREFIX) : Promise.resolve([]),
    read.results ? markers.list(SHARDS_PREFIX) : Promise.resolve([]),
  ]);
  const readyAtMs = new Map<number, number>();
  const readyTwice = new Set<number>();
  for (const name of readyNames) {
    const marker = parseReadyAt(name.slice(READY_AT_PREFIX.length));
    if (marker && readyAtMs.has(marker.index)) readyTwice.add(marker.index);
    else if (marker) readyAtMs.set(marker.index, marker.readyAtMs);
  }
  const indexes = (names: string[], kind: "progress" | "result" | "done") =>
    names.map((name) => shardOfName(kind, name)).filter((index) => index !== null);
  const unreadable: string[] = [];
  const readAll = async <T>(
    keys: string[],
    parse: Parse<T>,
    what: string,
    limitBytes?: number,
  ): Promise<T[]> => {
    const found = await Promise.all(
      keys.map((key) => readJson(markers, key, { parse, what, limitBytes }, unreadable)),
    );
    return found.filter((value) => value !== null);
  };
  return {
    readyAtMs,
    readyTwice: [...readyTwice].sort((a, b) => a - b),
    aborted: new Set(
      abortNames
        .map((name) => parseAbort(name.slice(ABORT_PREFIX.length)))
        .filter((index) => index !== null),
    ),
    stopped: abortNames.includes(STOP_KEY),
    done: new Set(indexes(doneNames, "done")),
    progress: await readAll(
      indexes(progressNames, "progress").map(progressKey),
      (value) => parseFields(ShardProgressSchema, value),
      "a TailLab shard's progress",
    ),
    results: await readAll(
      indexes(shardNames, "result").map(resultKey),
      (value) => parseFields(ShardResultSchema, value),
      "a TailLab shard's result",
      SHARD_RESULT_LIMIT_BYTES,
    ),
    unreadable,
  };
}

type Parse<T> = (value: unknown) => { ok: true; value: T } | { ok: false; errors: FieldError[] };

async function readJson<T>(
  markers: MarkerStore,
  key: string,
  { parse, what, limitBytes }: { parse: Parse<T>; what: string; limitBytes?: number | undefined },
  unreadable: string[],
): Promise<T | null> {
  const bytes = await markers.get(key, limitBytes);
  if (bytes === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    unreadable.push(`${markers.where(key)} is not JSON (${(error as Error).message})`);
    return null;
  }
  const parsed = parse(value);
  if (parsed.ok) return parsed.value;
  const [first] = parsed.errors;
  unreadable.push(
    `${markers.where(key)} is not ${what} this TailLab reads (${first ? formatFieldErrors([first]) : "?"})`,
  );
  return null;
}
