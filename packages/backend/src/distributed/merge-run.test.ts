import { RunSpecSchema } from "@taillab/api";
import { openResultsStore } from "@taillab/store";
import { ANSWER_LIMIT_BYTES, createTargetS3Client, type TargetS3Client } from "@taillab/engine";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMarkerStore, type MarkerStore } from "./bucket-markers.ts";
import { mergeRunFolder } from "./merge-run.ts";
import { foldedPhase, putGeneratedShard } from "./test-support/generated-shard.ts";

/**
 * The merge of shards whose records files are larger than a bound, through the embedded testbed:
 * no object reaches the merge whole past the bound (it is handed bytes by `get` only for small
 * objects; a records file is streamed to disk by `download`), and each is downloaded once.
 */

const credentials = { accessKeyId: "MERGEKEY", secretAccessKey: "merge-secret" };
/** More than any result or marker here, less than every records file. */
const HELD_BOUND_BYTES = 1024 * 1024;
const SHARDS = 2;
/** Records of ~1 KB keys of random hex: ~500 bytes each once compressed, ~2 MB a shard. */
const RECORDS = 4000;

let testbed: Testbed;
let s3: TargetS3Client;
let library: string;

beforeAll(async () => {
  testbed = await startTestbed({ credentials, buckets: ["loadgen"] });
  s3 = createTargetS3Client({
    url: testbed.url,
    region: "us-east-1",
    addressing: "path",
    credentials,
    bucket: "loadgen",
    maxConnections: 4,
  });
  library = await mkdtemp(join(tmpdir(), "taillab-merge-run-"));
});
afterAll(async () => {
  s3?.client.destroy();
  await s3?.handler.close();
  await testbed?.close();
  await rm(library, { recursive: true, force: true });
});

/** `markers`, counting the largest object it hands over whole and each name downloaded. */
function counting(markers: MarkerStore) {
  const seen = { largestHeldBytes: 0, downloads: new Map<string, number>() };
  const store: MarkerStore = {
    ...markers,
    async get(name, limitBytes) {
      const bytes = await markers.get(name, limitBytes);
      seen.largestHeldBytes = Math.max(seen.largestHeldBytes, bytes?.length ?? 0);
      return bytes;
    },
    download(name, path, limitBytes) {
      seen.downloads.set(name, (seen.downloads.get(name) ?? 0) + 1);
      return markers.download(name, path, limitBytes);
    },
  };
  return { store, seen };
}

describe("the merge of shards' records", () => {
  it("streams each records file, downloaded once, never holding one whole", async () => {
    const runId = `merge-stream-${process.pid}-${Date.now()}`;
    const markers = createMarkerStore({
      client: s3.client,
      bucket: "loadgen",
      prefix: `taillab/${runId}/`,
    });
    const spec = RunSpecSchema.parse({
      endpoints: [{ url: testbed.url }],
      clients: 10,
      samples: 200,
      objectSize: 1024,
      phases: ["write"],
    });
    const keyPrefix = `${spec.keyPrefix}/${runId}/`;
    const runStartEpochMs = Date.now() - 120_000;
    for (let index = 0; index < SHARDS; index += 1) {
      const { recordsBytes } = await putGeneratedShard(markers, {
        runId,
        index,
        shards: SHARDS,
        spec,
        endpointUrl: testbed.url,
        runStartEpochMs,
        phase: foldedPhase(100, index + 1),
        records: {
          count: RECORDS,
          keyOf: () => `${keyPrefix}${randomBytes(480).toString("hex")}`,
        },
      });
      expect(recordsBytes).toBeGreaterThan(HELD_BOUND_BYTES);
    }
    const { store: countingMarkers, seen } = counting(markers);
    const store = await openResultsStore(library);

    await mergeRunFolder({ markers: countingMarkers, runId, store });

    expect((await store.get(runId)).recordCount).toBe(SHARDS * RECORDS);
    // The downloads went into a scratch folder of the library, gone with the merge.
    expect((await readdir(library)).filter((name) => name.startsWith("."))).toEqual([]);
    expect(seen.largestHeldBytes).toBeLessThan(HELD_BOUND_BYTES);
    expect(Object.fromEntries(seen.downloads)).toEqual({
      "shards/0/records.ndjson.gz": 1,
      "shards/1/records.ndjson.gz": 1,
    });
  });
});

describe("a run folder's objects longer than the engine's answer limit", () => {
  it("are read and downloaded whole up to the limit the caller gives", async () => {
    const markers = createMarkerStore({
      client: s3.client,
      bucket: "loadgen",
      prefix: `taillab/long-objects-${process.pid}-${Date.now()}/`,
    });
    const long = randomBytes(ANSWER_LIMIT_BYTES + 1024);
    await markers.put("long", long);
    const limitBytes = 2 * ANSWER_LIMIT_BYTES;
    expect((await markers.get("long", limitBytes))?.length).toBe(long.length);
    const file = join(library, "long");
    expect(await markers.download("long", file, limitBytes)).toBe(true);
    expect((await stat(file)).size).toBe(long.length);
    await expect(markers.download("long", file, ANSWER_LIMIT_BYTES)).rejects.toThrow(
      /ResponseTooLarge/,
    );
  });
});
