/**
 * `taillab merge s3://…/RUN/` (and the end of a distributed run): the shards' results read from
 * the run's folder, merged exactly (core's mergeShards), and written into the results library as
 * a run like any other, with the shards' records when they uploaded them. Each shard's records are
 * downloaded once, into a scratch folder of the library, and read from there as a stream twice
 * (checked, then copied): what the merge holds is a batch of records, whatever their number.
 */
import {
  RESULTS_SCHEMA_VERSION,
  type RequestRecord,
  type RunSummary,
  type ShardResult,
} from "@taillab/api";
import {
  encodedHistogramsOf,
  expandSweep,
  intervalLogLines,
  mergeShards,
  shardKeyPrefix,
  shardMergeProblems,
  shardResultProblems,
  type MergedShards,
} from "@taillab/core";
import type { ResultsStore, RunWriter } from "@taillab/store";
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { InputError } from "../input-error.ts";
import type { MarkerStore } from "./bucket-markers.ts";
import { readRunFolder, type RunFolderSnapshot } from "./run-folder-reader.ts";
import { recordsKey, resultKey, SHARD_RECORDS_LIMIT_BYTES } from "./run-folder-layout.ts";
import { readShardRecords } from "./shard-records.ts";

export interface MergeOptions {
  markers: MarkerStore;
  runId: string;
  store: ResultsStore;
  /** Default: the spec's name, else "distributed run <id>". */
  name?: string;
  tags?: string[];
  /** Shards the run was started with, when known (else the shards' own count). */
  shards?: number;
  /**
   * The bucket from its root, to count what a killed shard left under its own key prefix
   * (ShardBreakdown.objectsLeft); without it they are not looked for.
   */
  bucket?: MarkerStore;
  /** Keep the run's folder in the bucket once merged; by default it is removed. */
  keepRunFolder?: boolean;
}

/**
 * The run's folder once the run is in the library: removed (its markers, progress and results
 * are in the merged run now), kept as asked, or left because removing it failed.
 */
export type RunFolderFate =
  { kind: "removed"; objects: number } | { kind: "kept" } | { kind: "left"; error: string };

export interface MergeOutcome {
  summary: RunSummary;
  /** How long reading, merging and writing took, ms. */
  mergeMs: number;
  runFolder: RunFolderFate;
}

/** Tags every merged run carries, so the library can tell them apart. */
export const DISTRIBUTED_TAG = "distributed";

export async function mergeRunFolder(options: MergeOptions): Promise<MergeOutcome> {
  const startedMs = performance.now();
  const { markers, runId, store } = options;
  const where = markers.where("");
  // First: a merged run's folder is removed, so merging it again would find nothing there.
  const exists = await store.get(runId).then(
    () => true,
    () => false,
  );
  if (exists) {
    throw InputError.of(
      "runId",
      `run ${runId} is already in the results library (${store.dir}); remove it first (taillab runs rm ${runId}) to merge it again`,
    );
  }
  const folder = await readRunFolder(markers, { progress: true, results: true }).catch(
    (error: unknown) => {
      throw InputError.of("results", (error as Error).message);
    },
  );
  if (folder.unreadable.length > 0) throw InputError.of("results", folder.unreadable.join("; "));
  if (folder.readyTwice.length > 0) {
    const shards = folder.readyTwice.join(", ");
    throw InputError.of(
      "results",
      `${where}: shard ${shards} became ready twice (two ready-at markers): two processes ran as one shard, and one's result overwrote the other's; this run cannot be merged`,
    );
  }
  const nowMs = Date.now();
  for (const result of folder.results) {
    const [problem] = shardResultProblems(result, nowMs);
    if (problem !== undefined) {
      throw InputError.of("results", `${markers.where(resultKey(result.index))}: ${problem}`);
    }
  }
  const [first] = folder.results;
  if (!first) {
    throw new NoShardResultError(
      `${where}: no shard left a result (${describeAbsence(folder.readyAtMs.size, folder.aborted.size)}); there is nothing to merge`,
    );
  }
  const problems = shardMergeProblems(folder.results);
  if (problems.length > 0) throw InputError.of("results", `${where}: ${problems.join("; ")}`);
  if (first.runId !== runId) {
    throw InputError.of(
      "results",
      `${where}: its shards belong to run ${first.runId}, not ${runId}`,
    );
  }
  const staging = await store.scratchFolder();
  try {
    const recordFiles = new Map<number, string>();
    for (const result of folder.results) {
      if (result.recordCount === null) continue;
      const file = join(staging, `${result.index}.ndjson.gz`);
      await downloadRecords(markers, result, file);
      await checkRecords(markers, result, file);
      recordFiles.set(result.index, file);
    }
    const objectsLeft = options.bucket
      ? await killedShardsLeft(options.bucket, folder, first, runId)
      : new Map<number, number>();
    const merged = await writeMerged({
      ...options,
      folder,
      first,
      recordFiles,
      startedMs,
      objectsLeft,
    });
    return {
      ...merged,
      runFolder: options.keepRunFolder ? { kind: "kept" } : await removeRunFolder(markers),
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The objects under each killed shard's own key prefix (a shard that started and left no result
 * never ran its cleanup), by index; a listing that fails is said as none found.
 */
async function killedShardsLeft(
  bucket: MarkerStore,
  folder: RunFolderSnapshot,
  first: ShardResult,
  runId: string,
): Promise<Map<number, number>> {
  const measured = new Set(folder.results.map((result) => result.index));
  const killed = folder.progress
    .map((progress) => progress.index)
    .filter((index) => !measured.has(index));
  const found = new Map<number, number>();
  for (const index of killed) {
    const keys = await bucket
      .list(shardKeyPrefix(first.spec.keyPrefix, runId, index))
      .catch(() => []);
    if (keys.length > 0) found.set(index, keys.length);
  }
  return found;
}

/** Every object of the run's folder; what failed is said, the merged run stays. */
async function removeRunFolder(markers: MarkerStore): Promise<RunFolderFate> {
  try {
    const names = await markers.list("");
    await markers.remove(names);
    return { kind: "removed", objects: names.length };
  } catch (error) {
    return { kind: "left", error: (error as Error).message };
  }
}

/** The merged run, written into the library with the shards' checked records files. */
async function writeMerged({
  markers,
  runId,
  store,
  folder,
  first,
  recordFiles,
  startedMs,
  objectsLeft,
  ...options
}: MergeOptions & {
  folder: RunFolderSnapshot;
  first: ShardResult;
  /** Each shard's downloaded and checked records file, by index. */
  recordFiles: ReadonlyMap<number, string>;
  startedMs: number;
  /** What each killed shard left under its own key prefix, by index. */
  objectsLeft: ReadonlyMap<number, number>;
}): Promise<Omit<MergeOutcome, "runFolder">> {
  const merged = mergeShards({
    shards: options.shards ?? first.shards,
    results: folder.results,
    readyAtMs: folder.readyAtMs,
    aborted: folder.aborted,
    progressAtMs: new Map(
      folder.progress.map((progress) => [progress.index, progress.updatedAtMs]),
    ),
  });
  const summary = mergedSummary(runId, first, merged, objectsLeft);
  const writer = await store.createRun({
    id: runId,
    name: options.name ?? first.spec.name ?? `distributed run ${runId}`,
    spec: first.spec,
    environment: first.environment,
    keyPrefix: `${first.spec.keyPrefix}/${runId}/`,
    runStartEpochMs: merged.runStartEpochMs,
    tags: [DISTRIBUTED_TAG, ...(options.tags ?? [])],
    createdAt: summary.startedAt,
  });
  try {
    for (const result of folder.results) {
      const file = recordFiles.get(result.index);
      if (file !== undefined) await copyRecords(markers, result, file, merged, writer);
    }
    for (const [pointIndex, point] of merged.points.entries()) {
      for (const { shape, account } of point.phases) {
        await writer.addPhase(
          { pointIndex, op: shape.op, ...encodedHistogramsOf(account) },
          intervalLogLines(pointIndex, shape.op, account.intervals),
        );
      }
    }
    await writer.finish(summary);
  } catch (error) {
    await writer.fail((error as Error).message);
    throw error;
  }
  return { summary, mergeMs: performance.now() - startedMs };
}

/**
 * A run folder without any shard's result: for `taillab merge` a folder to check (bad input), for
 * a run it followed (`k8s run`) a run whose shards never started or were stopped before they did.
 */
export class NoShardResultError extends InputError {
  constructor(message: string) {
    super([{ field: "results", message }]);
    this.name = "NoShardResultError";
  }
}

function describeAbsence(ready: number, aborted: number): string {
  if (ready === 0) return "none reached the start barrier";
  return `${ready} reached the start barrier${aborted > 0 ? `, ${aborted} gave up there` : ""}`;
}

function mergedSummary(
  runId: string,
  first: ShardResult,
  merged: MergedShards,
  objectsLeft: ReadonlyMap<number, number>,
): RunSummary {
  const { spec } = first;
  const lastEndUs = Math.max(
    0,
    ...merged.points.flatMap((point) =>
      point.phases.flatMap((phase) => phase.account.segments.map((segment) => segment.lastEndUs)),
    ),
  );
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    runId,
    startedAt: new Date(merged.runStartEpochMs).toISOString(),
    finishedAt: new Date(merged.runStartEpochMs + lastEndUs / 1000).toISOString(),
    spec,
    endpointUrls: first.endpointUrls,
    server: first.environment.server,
    mode: spec.mode,
    loop: spec.openLoop ? "open" : "closed",
    status: merged.status,
    pointCount: expandSweep(spec).length,
    points: merged.points.map(({ params, finished, phases }) => ({
      params,
      finished,
      phases: phases.map((phase) => phase.summary),
    })),
    distributed: {
      ...merged.distributed,
      shards: merged.distributed.shards.map((shard) => {
        const left = objectsLeft.get(shard.index);
        return left === undefined ? shard : { ...shard, objectsLeft: left };
      }),
    },
  };
}

/**
 * A shard's uploaded records file, streamed into `file` up to SHARD_RECORDS_LIMIT_BYTES; a
 * missing one is refused as bad input naming it.
 */
async function downloadRecords(
  markers: MarkerStore,
  result: ShardResult,
  file: string,
): Promise<void> {
  const key = recordsKey(result.index);
  const found = await markers
    .download(key, file, SHARD_RECORDS_LIMIT_BYTES)
    .catch((error: unknown) => {
      throw InputError.of("results", (error as Error).message);
    });
  if (!found) {
    throw InputError.of(
      "results",
      `${markers.where(key)} is missing: shard ${result.index}'s result says it uploaded ${result.recordCount} records`,
    );
  }
}

/**
 * A shard's downloaded records, read through before anything is written: a damaged file, a line
 * too long, a record that is not one, or fewer or more records than its result says is refused
 * as bad input naming the object.
 */
async function checkRecords(
  markers: MarkerStore,
  result: ShardResult,
  file: string,
): Promise<void> {
  const where = markers.where(recordsKey(result.index));
  let count = 0;
  try {
    for await (const item of readShardRecords(createReadStream(file), where)) {
      if ("header" in item) {
        const { index, runStartEpochMs } = item.header;
        if (index !== result.index || runStartEpochMs !== result.runStartEpochMs) {
          throw new Error(
            `${where}: its header is shard ${index}'s, from ${runStartEpochMs}, not shard ${result.index}'s from ${result.runStartEpochMs}`,
          );
        }
      } else {
        count += item.records.length;
      }
    }
  } catch (error) {
    throw InputError.of("results", (error as Error).message);
  }
  if (count !== result.recordCount) {
    throw InputError.of(
      "results",
      `${where} holds ${count} records, shard ${result.index}'s result says ${result.recordCount}`,
    );
  }
}

/**
 * The records files' batches between syncs of the merged run's log: the log's writes are queued
 * as they are appended, and a sync waits for them, so what is queued stays a few MB.
 */
const BATCHES_PER_SYNC = 64;

/** A shard's checked records, moved onto the merged run clock. */
async function copyRecords(
  markers: MarkerStore,
  result: ShardResult,
  file: string,
  merged: MergedShards,
  writer: RunWriter,
): Promise<void> {
  const offsetUs = (result.runStartEpochMs - merged.runStartEpochMs) * 1000;
  let batches = 0;
  const where = markers.where(recordsKey(result.index));
  for await (const item of readShardRecords(createReadStream(file), where)) {
    if ("header" in item) continue;
    writer.appendRecords(
      item.pointIndex,
      item.records.map((record) => shiftedRecord(record, offsetUs)),
    );
    batches += 1;
    if (batches % BATCHES_PER_SYNC === 0) await writer.flush();
  }
  await writer.flush();
}

function shiftedRecord(record: RequestRecord, offsetUs: number): RequestRecord {
  return {
    ...record,
    intendedStartUs: record.intendedStartUs + offsetUs,
    readyUs: record.readyUs + offsetUs,
    sentUs: record.sentUs + offsetUs,
    bodySentUs: record.bodySentUs === null ? null : record.bodySentUs + offsetUs,
    headersUs: record.headersUs + offsetUs,
    firstByteUs: record.firstByteUs + offsetUs,
    endUs: record.endUs + offsetUs,
  };
}
