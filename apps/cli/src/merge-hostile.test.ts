import { createMarkerStore, type MarkerStore } from "@taillab/backend";
import { createTargetS3Client, type TargetS3Client } from "@taillab/engine";
import { CRAFTED_SHARD_FOLDERS } from "@taillab/test-support";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, TEST_RESULTS_DIR } from "./test-support/run-cli.ts";
import { createServerBucket, type ServerBucket } from "./test-support/server-bucket.ts";

/**
 * `taillab merge` of damaged and crafted shard folders (test-support's CRAFTED_SHARD_FOLDERS,
 * made from the folder a real shard left on the testbed) and of a folder the server will not
 * list: each is refused with one line naming the object and what is wrong, exit 2, and nothing
 * is added to the results library.
 */

const credentials = { accessKeyId: "MERGEKEY", secretAccessKey: "merge-secret" };
let server: Testbed;
let bucket: ServerBucket;
let failListings = false;
let sound: { result: string; records: Uint8Array };
let runNumber = 0;

function newRunId(): string {
  runNumber += 1;
  return `crafted-${process.pid}-${Date.now()}-${runNumber}`;
}

const folderUri = (runId: string) => `s3://loadgen/taillab/${runId}/`;

function merge(runId: string) {
  return runCli(["merge", folderUri(runId), "--endpoint", server.url], bucket.env);
}

let s3: TargetS3Client;
/** The run's folder in the bucket, as the shards and the merge reach it. */
const folderOf = (runId: string): MarkerStore =>
  createMarkerStore({ client: s3.client, bucket: "loadgen", prefix: `taillab/${runId}/` });

beforeAll(async () => {
  server = await startTestbed({
    credentials,
    buckets: ["loadgen"],
    interceptor: ({ operation }) =>
      failListings && operation === "ListObjectsV2"
        ? { fault: { status: 500, code: "InternalError", message: "no listing today" } }
        : undefined,
  });
  bucket = await createServerBucket({ url: server.url, ...credentials });
  const runId = newRunId();
  const shard = await runCli(
    [
      "run",
      "--endpoint",
      server.url,
      ...["--clients", "2", "--samples", "20", "--size", "1KiB"],
      ...["--shard", "0/1", "--start-at", new Date().toISOString()],
      ...["--results", folderUri(runId), "--upload-records", "--json"],
    ],
    bucket.env,
  );
  expect(shard.code, shard.stderr).toBe(0);
  s3 = createTargetS3Client({
    url: server.url,
    region: "us-east-1",
    addressing: "path",
    credentials,
    bucket: "loadgen",
    maxConnections: 2,
  });
  const folder = folderOf(runId);
  const [result, records] = await Promise.all([
    folder.get("shards/0/result.json"),
    folder.get("shards/0/records.ndjson.gz"),
  ]);
  if (!result || !records) throw new Error("the shard left no result or no records");
  sound = { result: Buffer.from(result).toString("utf8"), records };
});
afterAll(async () => {
  s3?.client.destroy();
  await s3?.handler.close();
  await bucket?.bucket.close();
  await server?.close();
});

describe("taillab merge of hostile shard folders", () => {
  it("merges the sound folder the crafted ones are made from", async () => {
    const runId = newRunId();
    const folder = folderOf(runId);
    const result = JSON.parse(sound.result) as { runId: string };
    await folder.put("shards/0/result.json", JSON.stringify({ ...result, runId }));
    await folder.put("shards/0/records.ndjson.gz", sound.records);
    const merged = await merge(runId);
    expect(merged.code, merged.stderr).toBe(0);
  });

  it.each(CRAFTED_SHARD_FOLDERS.map((folder) => [folder.name, folder] as const))(
    "refuses %s with one line, exit 2, nothing created",
    async (_name, folder) => {
      const runId = newRunId();
      const store = folderOf(runId);
      for (const [name, bytes] of Object.entries(await folder.craft(sound, runId))) {
        await store.put(name, bytes);
      }
      const merged = await merge(runId);
      expect(merged.stderr).not.toMatch(/\n\s+at /);
      expect(merged.stderr.trim().split("\n")).toHaveLength(1);
      expect(merged.stderr).toMatch(folder.refusal);
      expect(merged.code, merged.stderr).toBe(2);
      expect(existsSync(join(TEST_RESULTS_DIR, runId))).toBe(false);
    },
  );

  it("refuses a folder the server will not list with one line, exit 2", async () => {
    failListings = true;
    try {
      const merged = await merge(newRunId());
      expect(merged.stderr).not.toMatch(/\n\s+at /);
      expect(merged.stderr.trim().split("\n")).toHaveLength(1);
      expect(merged.stderr).toMatch(/listing s3:\/\/loadgen\/taillab\/.*InternalError/);
      expect(merged.code, merged.stderr).toBe(2);
    } finally {
      failListings = false;
    }
  });
});
