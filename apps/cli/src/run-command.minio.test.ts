import { RunSummarySchema } from "@taillab/api";
import { createTransport, type ControlPlane } from "@taillab/engine";
import { startMinio, type MinioServer } from "@taillab/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";

/** The CLI against a real MinIO: what s3bench users point TailLab at. */

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

const runArgs = (...extra: string[]) => ["run", "--endpoint", minio.url, ...extra];

describe("taillab run against MinIO", () => {
  it("writes exactly `samples` objects and reads each back with the right size and bytes", async () => {
    const result = await runCli(
      runArgs(
        "--clients",
        "4",
        "--samples",
        "40",
        "--size",
        "8KiB",
        "--verify",
        "--skip-cleanup",
        "--json",
      ),
      env,
    );
    expect(result.code).toBe(0);
    const summary = RunSummarySchema.parse(JSON.parse(result.stdout));
    expect(summary.server).toMatch(/MinIO/i);
    const keys = await bucket.listKeys(`taillab/${summary.runId}/`);
    expect(keys).toHaveLength(40);
    const [put, get] = summary.points[0]?.phases ?? [];
    expect(put).toMatchObject({ op: "PUT", requests: 40, errors: 0, bytes: 40 * 8192 });
    expect(get).toMatchObject({ op: "GET", requests: 40, errors: 0, bytes: 40 * 8192 });
    await bucket.deleteKeys(keys);
  });

  it("leaves the bucket as it was, including objects that were there before the run", async () => {
    const transport = createTransport(
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
    const existing = ["keep-me.txt", "taillab/keep-me-too", "taillab/older-run/0"];
    for (const key of existing) await transport.putObject(key, Buffer.from(key));
    await transport.close();
    const before = (await bucket.listKeys("")).sort();

    const result = await runCli(
      runArgs("--clients", "3", "--samples", "30", "--size", "1KiB"),
      env,
    );
    expect(result.code).toBe(0);
    expect((await bucket.listKeys("")).sort()).toEqual(before);
    await bucket.deleteKeys(existing);
  });

  it("gives the same counts through the SDK path as through the fast path", async () => {
    const summaries = [];
    for (const transport of ["fast", "sdk"]) {
      const result = await runCli(
        runArgs(
          "--clients",
          "4",
          "--samples",
          "32",
          "--size",
          "4KiB",
          "--verify",
          "--transport",
          transport,
          "--json",
        ),
        env,
      );
      expect(result.code).toBe(0);
      summaries.push(RunSummarySchema.parse(JSON.parse(result.stdout)));
    }
    const counts = summaries.map((summary) =>
      summary.points[0]?.phases.map(({ op, requests, errors, bytes }) => ({
        op,
        requests,
        errors,
        bytes,
      })),
    );
    expect(counts[1]).toEqual(counts[0]);
    expect(counts[0]).toHaveLength(3);
  });

  it("hedges over two endpoints of the same MinIO (two pools of connections)", async () => {
    const result = await runCli(
      [
        "run",
        "--replicas",
        `${minio.url},${minio.url}`,
        "--mode",
        "hedged",
        "--hedge-delay",
        "0ms",
        "--hedge-budget",
        "50%",
        "--clients",
        "4",
        "--samples",
        "200",
        "--size",
        "4KiB",
        "--verify",
        "--json",
      ],
      env,
    );
    expect(result.code).toBe(0);
    const summary = RunSummarySchema.parse(JSON.parse(result.stdout));
    expect(summary.endpointUrls).toHaveLength(2);
    const get = summary.points[0]?.phases.find((phase) => phase.op === "GET");
    expect(get?.errors).toBe(0);
    expect(get?.requests).toBe(200);
    expect(get?.hedge?.extraPct).toBeGreaterThan(10);
    expect(get?.hedge?.attempts).toBeGreaterThan(220);
  });

  it("runs a mixed workload of every object operation, and cleans up after it", async () => {
    const result = await runCli(
      runArgs(
        "--ops",
        "get:30,head:10,put:10,copy:10,delete:5,list:5,multipart:10,create-bucket:5,delete-bucket:5,list-buckets:5,delete-objects:5",
        "--prepare",
        "20",
        "--range",
        "random:64KiB",
        "--size",
        "6MiB",
        "--multipart-part",
        "5MiB",
        "--clients",
        "4",
        "--samples",
        "120",
        "--verify",
        "--json",
      ),
      env,
    );
    expect(result.code).toBe(0);
    const summary = RunSummarySchema.parse(JSON.parse(result.stdout));
    const phases = summary.points[0]?.phases ?? [];
    expect(phases.map((phase) => phase.op)).toEqual([
      "GET",
      "HEAD",
      "PUT",
      "COPY",
      "DELETE",
      "LIST",
      "MULTIPART",
      "UPLOAD_PART",
      "CREATE_BUCKET",
      "DELETE_BUCKET",
      "LIST_BUCKETS",
      "DELETE_OBJECTS",
    ]);
    expect(phases.every((phase) => phase.errors === 0)).toBe(true);
    const requests = phases.filter((phase) => phase.op !== "UPLOAD_PART");
    expect(requests.reduce((sum, phase) => sum + phase.requests, 0)).toBe(120);
    // 6 MiB objects in 5 MiB parts: two parts per upload.
    const uploads = phases.find((phase) => phase.op === "MULTIPART")?.requests ?? 0;
    expect(phases.find((phase) => phase.op === "UPLOAD_PART")?.requests).toBe(2 * uploads);
    expect(await bucket.listKeys(`taillab/${summary.runId}/`)).toEqual([]);
  });

  it("rejects wrong credentials with a clear message and exit code 2", async () => {
    const result = await runCli(
      runArgs(
        "--clients",
        "1",
        "--samples",
        "1",
        "--size",
        "1KiB",
        "-accessKey",
        minio.accessKeyId,
        "-accessSecret",
        "wrong-secret",
      ),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("credentials: ");
    expect(result.stderr).toContain("SignatureDoesNotMatch");
    expect(result.stderr).not.toContain("wrong-secret");
  });

  it("names a missing bucket, and creates it with --create-bucket", async () => {
    const missing = await runCli(
      runArgs("--bucket", "not-there", "--clients", "1", "--samples", "2", "--size", "1KiB"),
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('bucket "not-there" does not exist');
    const created = await runCli(
      runArgs(
        "--bucket",
        "not-there",
        "--create-bucket",
        "--clients",
        "1",
        "--samples",
        "2",
        "--size",
        "1KiB",
      ),
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(
      `bucket "not-there" did not exist at ${minio.url}, so it was created; it is kept after the run`,
    );
  });
});
