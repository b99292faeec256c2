/**
 * `taillab merge s3://…/RUN/` (and the end of a distributed run): the shards' results read from
 * the run's folder, merged exactly (core's mergeShards), and written into the results library as
 * a run like any other, with the shards' records when they uploaded them.
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
  shardMergeProblems,
  shardResultProblems,
  type MergedShards,
} from "@taillab/core";
import type { ResultsStore, RunWriter } from "@taillab/store";
import { InputError } from "../input-error.ts";
import type { MarkerStore } from "./bucket-markers.ts";
import { readRunFolder } from "./run-folder-reader.ts";
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
}

export interface MergeOutcome {
  summary: RunSummary;
  /** How long reading, merging and writing took, ms. */
  mergeMs: number;
}

/** Tags every merged run carries, so the library can tell them apart. */
export const DISTRIBUTED_TAG = "distributed";

export async function mergeRunFolder(options: MergeOptions): Promise<MergeOutcome> {
  const startedMs = performance.now();
  const { markers, runId, store } = options;
  const where = markers.where("");
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
  for (const result of folder.results) {
    if (result.recordCount !== null) await checkRecords(markers, result);
  }
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
  const merged = mergeShards({
    shards: options.shards ?? first.shards,
    results: folder.results,
    readyAtMs: folder.readyAtMs,
    aborted: folder.aborted,
    progressAtMs: new Map(
      folder.progress.map((progress) => [progress.index, progress.updatedAtMs]),
    ),
  });
  const summary = mergedSummary(runId, first, merged);
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
      if (result.recordCount !== null) await copyRecords(markers, result, merged, writer);
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

function mergedSummary(runId: string, first: ShardResult, merged: MergedShards): RunSummary {
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
    distributed: merged.distributed,
  };
}

/**
 * A shard's uploaded records, read through before anything is written: a damaged file, a line
 * too long, a record that is not one, or fewer or more records than its result says is refused
 * as bad input naming the file.
 */
async function checkRecords(markers: MarkerStore, result: ShardResult): Promise<void> {
  let count = 0;
  try {
    for await (const item of shardRecords(markers, result)) {
      if ("header" in item) {
        const { index, runStartEpochMs } = item.header;
        if (index !== result.index || runStartEpochMs !== result.runStartEpochMs) {
          throw new Error(
            `${markers.where(recordsKey(result.index))}: its header is shard ${index}'s, from ${runStartEpochMs}, not shard ${result.index}'s from ${result.runStartEpochMs}`,
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
      `${markers.where(recordsKey(result.index))} holds ${count} records, shard ${result.index}'s result says ${result.recordCount}`,
    );
  }
}

/** A shard's records file, read to SHARD_RECORDS_LIMIT_BYTES. */
async function* shardRecords(
  markers: MarkerStore,
  result: ShardResult,
): ReturnType<typeof readShardRecords> {
  const key = recordsKey(result.index);
  const bytes = await markers.get(key, SHARD_RECORDS_LIMIT_BYTES);
  if (bytes === null) {
    throw new Error(
      `${markers.where(key)} is missing: shard ${result.index}'s result says it uploaded ${result.recordCount} records`,
    );
  }
  yield* readShardRecords(bytes, markers.where(key));
}

/** A shard's uploaded records, moved onto the merged run clock. */
async function copyRecords(
  markers: MarkerStore,
  result: ShardResult,
  merged: MergedShards,
  writer: RunWriter,
): Promise<void> {
  const offsetUs = (result.runStartEpochMs - merged.runStartEpochMs) * 1000;
  for await (const item of shardRecords(markers, result)) {
    if ("header" in item) continue;
    writer.appendRecords(
      item.pointIndex,
      item.records.map((record) => shiftedRecord(record, offsetUs)),
    );
  }
  await writer.flush();
}

function shiftedRecord(record: RequestRecord, offsetUs: number): RequestRecord {
  return {
    ...record,
    intendedStartUs: record.intendedStartUs + offsetUs,
    readyUs: record.readyUs + offsetUs,
    sentUs: record.sentUs + offsetUs,
    headersUs: record.headersUs + offsetUs,
    firstByteUs: record.firstByteUs + offsetUs,
    endUs: record.endUs + offsetUs,
  };
}
