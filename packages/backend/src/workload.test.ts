import type { RequestRecord, RunSummary } from "@taillab/api";
import type { ControlPlane } from "@taillab/engine";
import type { Testbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSignedTestbed, type SignedTestbed } from "./test-support/signed-testbed.ts";
import { runBenchmark } from "./run-benchmark.ts";

let signed: SignedTestbed;
let bucket: ControlPlane;
let testbed: Testbed;
let secrets: SignedTestbed["secrets"];
let credentials: SignedTestbed["credentials"];

beforeAll(async () => {
  signed = await startSignedTestbed();
  ({ bucket, testbed, secrets, credentials } = signed);
});
afterAll(async () => {
  await signed.close();
});

const endpoints = () => [signed.endpoint()];

const requestsByOp = (summary: RunSummary) =>
  Object.fromEntries(summary.points[0]?.phases.map((phase) => [phase.op, phase.requests]) ?? []);

describe("mixed workloads", () => {
  it("keeps the requested mix within ±2 % over 10 000 requests, one summary per operation", async () => {
    const summary = await runBenchmark(
      {
        endpoints: endpoints(),
        clients: 8,
        samples: 10_000,
        objectSize: "1KiB",
        verify: true,
        workload: { ops: "get:70,put:20,delete:5,list:5", prepareObjects: 200, keys: "zipf:1.1" },
      },
      secrets,
    );
    const phases = summary.points[0]?.phases ?? [];
    expect(phases.map((phase) => phase.op)).toEqual(["GET", "PUT", "DELETE", "LIST"]);
    expect(phases.every((phase) => phase.errors === 0)).toBe(true);
    const counts = requestsByOp(summary);
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    expect(total).toBe(10_000);
    for (const [op, share] of Object.entries({ GET: 70, PUT: 20, DELETE: 5, LIST: 5 })) {
      expect(Math.abs((100 * (counts[op] ?? 0)) / total - share)).toBeLessThanOrEqual(2);
    }
    // Prepared and new objects alike are gone afterwards.
    expect(await bucket.listKeys(`taillab/${summary.runId}/`)).toEqual([]);
  });

  it("runs HEAD, COPY, ranged GETs and multipart uploads, checking what it reads", async () => {
    const summary = await runBenchmark(
      {
        endpoints: endpoints(),
        clients: 4,
        samples: 400,
        objectSize: "64KiB",
        verify: true,
        workload: {
          ops: "get:40,head:20,copy:20,multipart:20",
          prepareObjects: 50,
          range: "random:8KiB",
          multipartPartBytes: "5MiB",
        },
      },
      secrets,
    );
    const phases = summary.points[0]?.phases ?? [];
    expect(phases.map((phase) => [phase.op, phase.errors])).toEqual([
      ["GET", 0],
      ["HEAD", 0],
      ["COPY", 0],
      ["MULTIPART", 0],
      ["UPLOAD_PART", 0],
    ]);
    // 64 KiB objects in 5 MiB parts: one part per upload, timed on its own.
    const uploads = phases.find((phase) => phase.op === "MULTIPART");
    const parts = phases.find((phase) => phase.op === "UPLOAD_PART");
    expect(parts?.requests).toBe(uploads?.requests);
    expect(parts?.bytes).toBe(uploads?.bytes);
    const get = phases.find((phase) => phase.op === "GET");
    expect(get?.bytes).toBe((get?.requests ?? 0) * 8192);
    expect(await bucket.listKeys(`taillab/${summary.runId}/`)).toEqual([]);
  });

  it("draws object sizes from a distribution, the same size for a key on every read", async () => {
    const records: { op: string; bytes: number }[] = [];
    const summary = await runBenchmark(
      {
        endpoints: endpoints(),
        clients: 4,
        samples: 2000,
        objectSize: "256KiB",
        verify: true,
        workload: { ops: "get:50,put:50", prepareObjects: 100, sizes: "lognormal:4KiB:256KiB" },
      },
      secrets,
      { onRecords: (_point, batch) => records.push(...batch) },
    );
    const phases = summary.points[0]?.phases ?? [];
    expect(phases.every((phase) => phase.errors === 0)).toBe(true);
    const putSizes = records.filter((record) => record.op === "PUT").map((record) => record.bytes);
    expect(Math.min(...putSizes)).toBeGreaterThanOrEqual(4096);
    expect(Math.max(...putSizes)).toBeLessThanOrEqual(262_144);
    expect(new Set(putSizes).size).toBeGreaterThan(100);
    // Median of lognormal:4KiB:256KiB is their geometric mean, 32 KiB.
    const sorted = [...putSizes].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    expect(median).toBeGreaterThan(32_768 * 0.8);
    expect(median).toBeLessThan(32_768 * 1.25);
  });

  it("measures bucket operations per second and leaves no bucket behind", async () => {
    const summary = await runBenchmark(
      {
        endpoints: endpoints(),
        clients: 4,
        samples: 400,
        objectSize: "1KiB",
        workload: {
          ops: "create-bucket:25,delete-bucket:25,list-buckets:25,delete-objects:10,put:15",
          prepareObjects: 10,
        },
      },
      secrets,
    );
    const phases = summary.points[0]?.phases ?? [];
    expect(phases.map((phase) => [phase.op, phase.errors])).toEqual([
      ["CREATE_BUCKET", 0],
      ["DELETE_BUCKET", 0],
      ["LIST_BUCKETS", 0],
      ["DELETE_OBJECTS", 0],
      ["PUT", 0],
    ]);
    for (const phase of phases) expect(phase.opsPerSec).toBeGreaterThan(0);
    const { createTransport } = await import("@taillab/engine");
    const transport = createTransport(
      "fast",
      {
        url: testbed.url,
        region: "us-east-1",
        addressing: "path",
        credentials,
        bucket: "loadgen",
        maxConnections: 1,
      },
      () => 0,
    );
    expect((await transport.listBuckets()).bucketCount).toBe(1);
    await transport.close();
  });

  it("stops once its total bytes were moved", async () => {
    const summary = await runBenchmark(
      {
        endpoints: endpoints(),
        clients: 2,
        samples: 1_000_000,
        objectSize: "64KiB",
        workload: { ops: "get:50,put:50", prepareObjects: 10, totalBytes: "4MiB" },
      },
      secrets,
    );
    const moved = (summary.points[0]?.phases ?? []).reduce((sum, phase) => sum + phase.bytes, 0);
    expect(moved).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    // At most the requests already in flight when the total was reached go past it.
    expect(moved).toBeLessThanOrEqual(4 * 1024 * 1024 + 2 * 64 * 1024);
  });

  it("stops at its duration and leaves the warm-up out of the figures", async () => {
    const gets: RequestRecord[] = [];
    const summary = await runBenchmark(
      {
        endpoints: endpoints(),
        clients: 4,
        samples: 10_000_000,
        objectSize: "1KiB",
        phases: ["write"],
        workload: { ops: "get", prepareObjects: 20, durationMs: "1500ms", warmupMs: "500ms" },
      },
      secrets,
      {
        onRecords: (_point, records) => gets.push(...records.filter((r) => r.op === "GET")),
      },
    );
    const [get] = summary.points[0]?.phases ?? [];
    // Timings are of this run's own records: on a busy machine there are fewer, never later ones.
    const warmup = gets.filter((record) => !record.measured).map((r) => r.intendedStartUs);
    const measured = gets.filter((record) => record.measured).map((r) => r.intendedStartUs);
    expect(warmup.length).toBeGreaterThan(0);
    expect(measured.length).toBeGreaterThan(0);
    expect(get?.requests).toBe(measured.length);
    // The phase starts at or before its first request: what it sends in its first 500 ms is
    // warm-up, left out of the figures, and it sends nothing after 1 500 ms.
    const firstUs = Math.min(...warmup);
    expect(Math.max(...warmup) - firstUs).toBeLessThan(500_000);
    expect(Math.max(...warmup)).toBeLessThan(Math.min(...measured));
    expect(Math.max(...measured) - firstUs).toBeLessThan(1_500_000);
    await bucket.deleteKeys(await bucket.listKeys(`taillab/${summary.runId}/`));
  });
});

describe("repetitions", () => {
  it("runs a point k times, merges them and reports each with the trimmed mean", async () => {
    const summary = await runBenchmark(
      { endpoints: endpoints(), clients: 2, samples: 50, objectSize: "1KiB", repeat: 5 },
      secrets,
    );
    const [point] = summary.points;
    expect(point?.repetitions).toHaveLength(5);
    expect(point?.phases.map((phase) => [phase.op, phase.requests])).toEqual([
      ["PUT", 250],
      ["GET", 250],
      ["DELETE", 250],
    ]);
    const get = point?.repetitionStats?.find((stats) => stats.op === "GET");
    expect(get?.opsPerSec.method).toBe("trimmed-mean");
    expect(get?.opsPerSec.kept).toHaveLength(3);
    expect(get?.opsPerSec.dropped).toHaveLength(2);
    const each =
      point?.repetitions?.map((repetition) => repetition.phases[1]?.opsPerSec ?? 0) ?? [];
    expect(Math.min(...each)).toBe(Math.min(...(get?.opsPerSec.dropped ?? [])));
    expect(await bucket.listKeys(`taillab/${summary.runId}/`)).toEqual([]);
  });
});
