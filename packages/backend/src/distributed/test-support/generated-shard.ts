/**
 * A finished shard's objects made up without running it, for the merge's tests and benches: a
 * result folded from generated GET requests, its records file, and the markers a finished shard
 * leaves (ready-at, done).
 */
import {
  DISTRIBUTED_SCHEMA_VERSION,
  type RequestRecord,
  type RunSpec,
  type ShardPhase,
  type ShardResult,
} from "@taillab/api";
import { PhaseAccount, type LogicalRequest } from "@taillab/core";
import { readyAtKey } from "../barrier-markers.ts";
import type { MarkerStore } from "../bucket-markers.ts";
import { doneKey, recordsKey, resultKey } from "../run-folder-layout.ts";
import { captureEnvironment } from "../../run-environment.ts";
import { createShardRecordsWriter } from "../shard-records.ts";

/** One shard's GET phase: `requests` requests over a minute from 10 clients, folded. */
export function foldedPhase(requests: number, seed: number): ShardPhase {
  const account = new PhaseAccount({ op: "GET", loop: "closed", hedgeBudgetPct: null });
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < requests; n += 1) {
    const startUs = Math.floor((n / requests) * 60e6);
    const serviceUs = 500 + Math.floor(20_000 * random() ** 4);
    const request: LogicalRequest = {
      op: "GET",
      intendedStartUs: startUs,
      phaseIndex: 0,
      client: n % 10,
      measured: true,
      winner: 0,
      attempts: [
        {
          replica: 0,
          readyUs: startUs,
          sentUs: startUs + 10,
          headersUs: startUs + serviceUs,
          firstByteUs: startUs + serviceUs,
          endUs: startUs + serviceUs + 20,
          bytes: 4096,
          error: null,
        },
      ],
    };
    account.add(request);
  }
  const phase = { ...account.shape, summary: account.summary(), account: account.snapshot() };
  account.destroy();
  return phase;
}

export interface GeneratedShard {
  runId: string;
  index: number;
  shards: number;
  spec: RunSpec;
  endpointUrl: string;
  /** The run's clock, epoch ms: every shard of a run shares it. */
  runStartEpochMs: number;
  phase: ShardPhase;
  /** Records uploaded with the result; null: none. */
  records: { count: number; keyOf: (n: number) => string } | null;
}

/**
 * Puts the shard's result, its records when it has some, and its ready-at and done markers;
 * returns the sizes of the result and of the records file.
 */
export async function putGeneratedShard(
  markers: MarkerStore,
  shard: GeneratedShard,
): Promise<{ resultBytes: number; recordsBytes: number }> {
  const { runId, index, shards, spec, runStartEpochMs: T0 } = shard;
  const result: ShardResult = {
    schemaVersion: DISTRIBUTED_SCHEMA_VERSION,
    kind: "taillab-shard-result",
    runId,
    index,
    shards,
    spec,
    environment: captureEnvironment(null),
    endpointUrls: [shard.endpointUrl],
    runStartEpochMs: T0,
    startAtMs: T0,
    t0Ms: T0,
    startedAtMs: T0,
    clock: null,
    status: "complete",
    error: null,
    points: [
      {
        params: { clients: 10, samples: shard.phase.summary.requests, objectSizeBytes: 1024 },
        finished: true,
        phases: [shard.phase],
      },
    ],
    recordCount: shard.records?.count ?? null,
  };
  const records = shard.records ? await generatedRecords(index, T0, shard.records) : null;
  if (records) await markers.put(recordsKey(index), records);
  const text = JSON.stringify(result);
  await markers.put(resultKey(index), text);
  await markers.put(readyAtKey({ index, readyAtMs: T0 - 1_000 }), "");
  await markers.put(doneKey(index), JSON.stringify({ index, status: "complete" }));
  return { resultBytes: Buffer.byteLength(text), recordsBytes: records?.length ?? 0 };
}

/** A records file of `count` GETs, one every 20 µs, compressed as a shard uploads them. */
async function generatedRecords(
  index: number,
  runStartEpochMs: number,
  { count, keyOf }: { count: number; keyOf: (n: number) => string },
): Promise<Uint8Array> {
  const writer = createShardRecordsWriter({ index, runStartEpochMs });
  const BATCH = 1000;
  for (let from = 0; from < count; from += BATCH) {
    const batch: RequestRecord[] = [];
    for (let n = from; n < Math.min(count, from + BATCH); n += 1) {
      const start = n * 20;
      batch.push({
        op: "GET",
        key: keyOf(n),
        bytes: 4096,
        intendedStartUs: start,
        readyUs: start,
        sentUs: start + 10,
        connectUs: null,
        bodySentUs: start + 10,
        headersUs: start + 500,
        firstByteUs: start + 500,
        endUs: start + 520,
        status: 200,
        error: null,
        attempt: 1,
        replica: 0,
        winner: true,
        phaseIndex: 0,
        client: n % 10,
        measured: true,
      });
    }
    writer.add(0, batch);
  }
  return (await writer.finish()).bytes;
}
