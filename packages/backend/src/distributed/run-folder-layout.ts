/**
 * Where a shard leaves what it measured in the run's folder (api's distributed-run.ts describes
 * each object); the start barrier's markers are in barrier-markers.ts.
 */

export const PROGRESS_PREFIX = "progress/";
export const DONE_PREFIX = "done/";
export const SHARDS_PREFIX = "shards/";

export const progressKey = (index: number): string => `${PROGRESS_PREFIX}${index}.json`;
export const resultKey = (index: number): string => `${SHARDS_PREFIX}${index}/result.json`;
export const recordsKey = (index: number): string => `${SHARDS_PREFIX}${index}/records.ndjson.gz`;
export const doneKey = (index: number): string => `${DONE_PREFIX}${index}`;

const PROGRESS_NAME = /^progress\/(\d+)\.json$/;
const RESULT_NAME = /^shards\/(\d+)\/result\.json$/;
const DONE_NAME = /^done\/(\d+)$/;

/** The shard index a progress, result or done object's name carries, or null. */
export function shardOfName(kind: "progress" | "result" | "done", name: string): number | null {
  const pattern = { progress: PROGRESS_NAME, result: RESULT_NAME, done: DONE_NAME }[kind];
  const match = pattern.exec(name);
  return match ? Number(match[1]) : null;
}
