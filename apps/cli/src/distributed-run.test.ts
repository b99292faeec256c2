import { RunSummarySchema, type RunSummary } from "@taillab/api";
import { openResultsStore } from "@taillab/backend";
import { createArrivalSchedule } from "@taillab/core";
import type { ControlPlane } from "@taillab/engine";
import { startMinio } from "@taillab/test-support";
import { startTestbed } from "@taillab/testbed";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLI_MAIN,
  outputOf,
  runCli,
  TEST_RESULTS_DIR,
  type CliResult,
} from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";

/**
 * Distributed runs of local shard processes (`taillab run --shard I/N`), against the embedded
 * testbed and MinIO, then `taillab merge`: the start barrier, the start spread, the merge's
 * figures against one histogram of all the records, and shards that fail in every way a pod can.
 */

interface Server {
  url: string;
  env: Record<string, string>;
  bucket: ControlPlane;
  stop(): Promise<void>;
}

const servers: Record<string, () => Promise<Server>> = {
  testbed: async () => {
    const credentials = { accessKeyId: "SHARDKEY", secretAccessKey: "shard-secret" };
    const testbed = await startTestbed({ credentials, buckets: ["loadgen"], profile: "steady" });
    const { env, bucket } = await createServerBucket({ url: testbed.url, ...credentials });
    return { url: testbed.url, env, bucket, stop: () => testbed.close() };
  },
  minio: async () => {
    const minio = await startMinio();
    const { env, bucket } = await createServerBucket(minio);
    return { url: minio.url, env, bucket, stop: () => minio.stop() };
  },
};

let runNumber = 0;
/** A run of its own: a fresh folder in the bucket. */
function newFolder(): { runId: string; uri: string } {
  runNumber += 1;
  const runId = `shards-${process.pid}-${Date.now()}-${runNumber}`;
  return { runId, uri: `s3://loadgen/taillab/${runId}/` };
}

function summaryOf(result: CliResult): RunSummary {
  return RunSummarySchema.parse(JSON.parse(result.stdout));
}

describe.each(Object.keys(servers))("distributed runs on %s", (serverName) => {
  let server: Server;

  beforeAll(async () => {
    server = await (servers[serverName] as () => Promise<Server>)();
  });
  afterAll(async () => {
    await server?.bucket.close();
    await server?.stop();
  });

  /** A shard process; `startAt` is shared by the run's shards. */
  function shard(
    index: number,
    shards: number,
    folder: { uri: string },
    startAt: string,
    workload: string[],
  ) {
    const child = spawn(
      process.execPath,
      [
        CLI_MAIN,
        "run",
        "--endpoint",
        server.url,
        ...workload,
        "--shard",
        `${index}/${shards}`,
        "--start-at",
        startAt,
        "--results",
        folder.uri,
        "--json",
      ],
      { env: { ...process.env, ...server.env } },
    );
    return { child, result: outputOf(child) };
  }

  const merge = (folder: { uri: string }, ...extra: string[]) =>
    runCli(["merge", folder.uri, "--endpoint", server.url, "--json", ...extra], server.env);

  it("starts 4 shards at one T0 and merges them into the figures of all their records", async () => {
    const folder = newFolder();
    const startAt = new Date().toISOString();
    const workload = ["--clients", "8", "--samples", "800", "--size", "4KiB", "--upload-records"];
    const results = await Promise.all(
      [0, 1, 2, 3].map((index) => shard(index, 4, folder, startAt, workload).result),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    // Each shard ran its share, with keys of its own, and cleaned them up.
    for (const result of results) {
      expect(summaryOf(result).points[0]?.params).toEqual({
        clients: 2,
        samples: 200,
        objectSizeBytes: 4096,
      });
    }
    expect(await server.bucket.listKeys(`taillab/${folder.runId}-0/`)).toEqual([]);

    const merged = await merge(folder);
    expect(merged.code, merged.stderr).toBe(0);
    const summary = summaryOf(merged);
    expect(summary).toMatchObject({ runId: folder.runId, status: "complete" });
    expect(summary.points[0]?.params).toEqual({ clients: 8, samples: 800, objectSizeBytes: 4096 });
    const distributed = summary.distributed;
    expect(distributed?.merged).toEqual([0, 1, 2, 3]);
    expect(distributed?.shards.map((each) => each.status)).toEqual(Array(4).fill("complete"));
    console.log(
      `${serverName}: start spread of 4 shard processes ${distributed?.startSpreadMs} ms, clock skew ${distributed?.clockSkewMs} ms (± ${distributed?.clockSkewBoundMs} ms)`,
    );
    for (const phase of summary.points[0]?.phases ?? []) expect(phase.requests).toBe(800);
    const shown = await runCli(["runs", "show", folder.runId]);
    expect(shown.stdout).toMatch(/Distributed: 4 shards, 4 merged; T0 /);
    expect(shown.stdout).toMatch(/shard 3: complete, started \+[\d.]+ ms from T0/);

    // One histogram of every shard's records (the library rebuilds the run from them) gives the
    // same figures as the merged histograms.
    const store = await openResultsStore(TEST_RESULTS_DIR);
    expect((await store.get(folder.runId)).recordCount).toBe(2400);
    const rebuilt = await store.summarizeFromRecords(folder.runId);
    const figures = (run: RunSummary) =>
      run.points[0]?.phases.map(({ op, requests, errors, latencyMs, serviceMs, ttfbMs, tail }) => ({
        op,
        requests,
        errors,
        latencyMs,
        serviceMs,
        ttfbMs,
        tail,
      }));
    expect(figures(summary)).toEqual(figures(rebuilt));
  });

  it("sends the open loop's one schedule from its shards, together", async () => {
    const folder = newFolder();
    const startAt = new Date().toISOString();
    // The spec's default seed: every shard draws the same Poisson process.
    const rate = { arrivals: "poisson" as const, rateHz: 400, seed: 1 };
    const workload = [
      ...["--clients", "6", "--size", "1KiB", "--phases", "write", "--upload-records"],
      ...["--rate", `${rate.rateHz}/s`, "--arrivals", rate.arrivals, "--duration", "1s"],
    ];
    const results = await Promise.all(
      [0, 1, 2].map((index) => shard(index, 3, folder, startAt, workload).result),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const merged = await merge(folder);
    expect(merged.code, merged.stderr).toBe(0);
    const store = await openResultsStore(TEST_RESULTS_DIR);
    const starts: number[] = [];
    for await (const { record } of store.records(folder.runId)) {
      if (record.attempt === 1) starts.push(record.intendedStartUs);
    }
    // On the merged clock T0 is 0; the schedule starts 20 ms after it in every shard.
    const offsets = createArrivalSchedule(rate);
    const schedule = Array.from({ length: 400 }, () => Math.round(20_000 + offsets.nextOffsetUs()));
    expect(starts.sort((a, b) => a - b)).toEqual(schedule);
  });

  if (serverName !== "testbed") return;

  it("aborts at the deadline, names the shard that never started and turns a late joiner away", async () => {
    // The deadline is a time of day: on a busy machine a shard process may itself reach the
    // barrier after it (one took 3.5 s at a load of 10, another over 15 s at 17), which tells
    // another story than the missing shard 2. Such a try is run again with twice the time.
    const attempt = async (timeoutS: number) => {
      const folder = newFolder();
      const startAt = new Date().toISOString();
      const workload = [
        "--clients",
        "3",
        "--samples",
        "30",
        "--size",
        "1KiB",
        "--barrier-timeout",
        `${timeoutS}s`,
      ];
      const waiting = await Promise.all(
        [0, 1].map((index) => shard(index, 3, folder, startAt, workload).result),
      );
      if (waiting.some((result) => /after the barrier's deadline/.test(result.stderr))) {
        return null;
      }
      const late = await shard(2, 3, folder, startAt, workload).result;
      return { folder, waiting, late };
    };
    let outcome = await attempt(15);
    for (let timeoutS = 30; outcome === null; timeoutS *= 2) outcome = await attempt(timeoutS);
    const { folder, waiting, late } = outcome;
    expect(late.code).toBe(3);
    expect(late.stderr).toMatch(/the run was aborted by shard|after the barrier's deadline/);
    for (const result of waiting) {
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/shard 2 of 3 not ready by the deadline|aborted by shard/);
    }
    expect(
      waiting.some((result) => /shard 2 of 3 not ready by the deadline/.test(result.stderr)),
    ).toBe(true);
    const merged = await merge(folder);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(
      // The first to give up writes its abort marker; the other may see it and just leave.
      /no shard left a result \(2 reached the start barrier, [12] gave up there\)/,
    );
  });

  it("refuses a second shard of one index (412) and runs the others", async () => {
    const folder = newFolder();
    const startAt = new Date().toISOString();
    const workload = ["--clients", "2", "--samples", "40", "--size", "1KiB"];
    const results = await Promise.all(
      [0, 1, 1].map((index) => shard(index, 2, folder, startAt, workload).result),
    );
    const codes = results.map((result) => result.code).sort();
    expect(codes).toEqual([0, 0, 3]);
    const refused = results.find((result) => result.code === 3);
    expect(refused?.stderr).toMatch(/another shard already claimed index 1/);
    const merged = await merge(folder);
    expect(merged.code, merged.stderr).toBe(0);
    expect(summaryOf(merged).distributed?.merged).toEqual([0, 1]);
  });

  it("merges what the others measured when a shard is killed mid-run, and names it", async () => {
    const folder = newFolder();
    const startAt = new Date().toISOString();
    const workload = ["--clients", "3", "--samples", "1500", "--size", "1KiB"];
    const shards = [0, 1, 2].map((index) => shard(index, 3, folder, startAt, workload));
    const victim = shards[1]!;
    // Killed once it has written progress: it started, measured, and never ends.
    for (;;) {
      const progress = await server.bucket.listKeys(`taillab/${folder.runId}/progress/1`);
      if (progress.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    victim.child.kill("SIGKILL");
    const [first, killed, last] = await Promise.all(shards.map((each) => each.result));
    expect(killed?.code).toBe(null);
    expect(first?.code, first?.stderr).toBe(0);
    expect(last?.code, last?.stderr).toBe(0);
    const merged = await merge(folder);
    expect(merged.code).toBe(1);
    const summary = summaryOf(merged);
    expect(summary.status).toBe("stopped");
    expect(summary.distributed?.merged).toEqual([0, 2]);
    expect(summary.distributed?.shards[1]).toMatchObject({ status: "missing" });
    expect(summary.distributed?.shards[1]?.problem).toMatch(/started but left no result/);
    const [put] = summary.points[0]?.phases ?? [];
    expect(put?.requests).toBe(1000);
    // Merged again, it is refused: the run is in the library already.
    const again = await merge(folder);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already in the results library/);
  });
});
