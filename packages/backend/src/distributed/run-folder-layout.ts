/**
 * Where a shard leaves what it measured in the run's folder (api's distributed-run.ts describes
 * each object); the start barrier's markers are in barrier-markers.ts.
 */

export const PROGRESS_PREFIX = "progress/";
export const DONE_PREFIX = "done/";
export const SHARDS_PREFIX = "shards/";
/**
 * `gone/I`: whoever started the run saw shard I's process end without its done marker (`taillab
 * k8s run`: the Job marked its index failed); the phase gates stop waiting for it.
 */
export const GONE_PREFIX = "gone/";

export const progressKey = (index: number): string => `${PROGRESS_PREFIX}${index}.json`;
export const resultKey = (index: number): string => `${SHARDS_PREFIX}${index}/result.json`;
export const recordsKey = (index: number): string => `${SHARDS_PREFIX}${index}/records.ndjson.gz`;
export const doneKey = (index: number): string => `${DONE_PREFIX}${index}`;
export const goneKey = (index: number): string => `${GONE_PREFIX}${index}`;

/**
 * The longest result a merge reads: a shard's accounts hold a histogram per operation and second,
 * some tens of MB for a day-long phase. Markers and progress objects are read to the engine's
 * ANSWER_LIMIT_BYTES.
 */
export const SHARD_RESULT_LIMIT_BYTES = 256 * 1024 * 1024;
/** The longest records file a merge reads: gzipped, about 40 bytes a record (25 M records). */
export const SHARD_RECORDS_LIMIT_BYTES = 1024 * 1024 * 1024;

const PROGRESS_NAME = /^progress\/(\d+)\.json$/;
const RESULT_NAME = /^shards\/(\d+)\/result\.json$/;
const DONE_NAME = /^done\/(\d+)$/;
const GONE_NAME = /^gone\/(\d+)$/;

/** The shard index a progress, result, done or gone object's name carries, or null. */
export function shardOfName(
  kind: "progress" | "result" | "done" | "gone",
  name: string,
): number | null {
  const pattern = {
    progress: PROGRESS_NAME,
    result: RESULT_NAME,
    done: DONE_NAME,
    gone: GONE_NAME,
  }[kind];
  const match = pattern.exec(name);
  return match ? Number(match[1]) : null;
}
