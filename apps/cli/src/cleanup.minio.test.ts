import { RunSummarySchema } from "@taillab/api";
import { createTransport, type ControlPlane } from "@taillab/engine";
import { startMinio, type MinioServer } from "@taillab/test-support";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli } from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";

/**
 * `taillab cleanup` against a real MinIO, where its listings do not say what S3's would:
 * ListMultipartUploads with a prefix that is not a whole key answers nothing, and an object
 * named exactly `taillab/<run id>` hides every key under `taillab/<run id>/` from ListObjectsV2.
 */

let minio: MinioServer;
let bucket: ControlPlane;
let env: Record<string, string>;

beforeAll(async () => {
  minio = await startMinio();
  ({ env, bucket } = await createServerBucket(minio));
});
afterAll(async () => {
  await bucket?.close();
  await minio?.stop();
});

function transport() {
  return createTransport(
    "sdk",
    {
      url: minio.url,
      region: "us-east-1",
      addressing: "path",
      credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey },
      bucket: "loadgen",
      maxConnections: 1,
    },
    () => 0,
  );
}

/** Polls until `check` holds; only the test's timeout bounds it. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(100);
}

describe("taillab cleanup on MinIO", () => {
  it("after a run killed (kill -9) during multipart uploads, it aborts the run's open uploads", async () => {
    const run = startCli(
      [
        "run",
        "--endpoint",
        minio.url,
        "--ops",
        "multipart:1",
        "--prepare",
        "1",
        "--size",
        "16MiB",
        "--multipart-part",
        "5MiB",
        "--clients",
        "2",
        "--samples",
        "100000",
      ],
      env,
    );
    await until(async () => (await bucket.listUploads("")).length >= 2);
    run.child.kill("SIGKILL");
    await run.result;
    const [upload] = await bucket.listUploads("");
    const runId = /^taillab\/([^/]+)\//.exec(upload?.key ?? "")?.[1] ?? "";
    expect(runId).not.toBe("");

    const cleanup = await runCli(["cleanup", runId, "--json"], env);
    expect(cleanup.code).toBe(0);
    const done = JSON.parse(cleanup.stdout);
    expect(done).toMatchObject({ uploadsLeft: 0, unchecked: [] });
    expect(done.removed.uploads).toBeGreaterThanOrEqual(1);
    expect(await bucket.listUploads("")).toEqual([]);
    expect(await bucket.listKeys(`taillab/${runId}/`)).toEqual([]);
  });

  it("an object named exactly taillab/<run id> hides the run's keys from the listing: the keys its records name are deleted", async () => {
    const kept = await runCli(
      [
        "run",
        "--endpoint",
        minio.url,
        "--clients",
        "2",
        "--samples",
        "20",
        "--size",
        "1KiB",
        "--skip-cleanup",
        "--json",
      ],
      env,
    );
    expect(kept.code).toBe(0);
    const { runId } = RunSummarySchema.parse(JSON.parse(kept.stdout));
    const lookalike = `taillab/${runId}`;
    const objects = transport();
    expect((await objects.putObject(lookalike, Buffer.from("not the run's"))).error).toBeNull();
    expect(await bucket.listKeys(`taillab/${runId}/`)).toEqual([]);

    const cleanup = await runCli(["cleanup", runId, "--json"], env);
    expect(cleanup.code).toBe(0);
    expect(JSON.parse(cleanup.stdout)).toMatchObject({ removed: { objects: 20 }, objectsLeft: 0 });
    // Again: the records' keys are gone already, and are not said removed a second time.
    const again = await runCli(["cleanup", runId, "--json"], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ removed: { objects: 0 }, objectsLeft: 0 });
    expect((await objects.headObject(lookalike)).error).toBeNull();
    expect((await bucket.deleteKeys([lookalike])).removed).toBe(1);
    await objects.close();
    expect(await bucket.listKeys(`taillab/${runId}/`)).toEqual([]);
  });
});
