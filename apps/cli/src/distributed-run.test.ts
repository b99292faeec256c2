import { RunSummarySchema, type RunSummary } from "@taillab/api";
import { openResultsStore } from "@taillab/backend";
import { createArrivalSchedule } from "@taillab/core";
import { createTransport, type ControlPlane } from "@taillab/engine";
import { heldCleanup, startDrippingProxy, startMinio } from "@taillab/test-support";
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
 * testbed and MinIO, then `taillab merge`: the start barrier, the start spread, every later phase
 * started together, the merge's figures against one histogram of all the records, and shards
 * that fail in every way a pod can. Every run has a folder of its own, so the tests run side by
 * side (describe.concurrent): most of a test is shard processes starting and waiting at barriers.
 * The one that bounds a request's time comes last, alone.
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

type ShardArgs = [
  index: number,
  shards: number,
  folder: { uri: string },
  startAt: string,
  workload: string[],
];

/** A shard process against `server`; `startAt` is shared by the run's shards. */
function spawnShard(
  server: Pick<Server, "url" | "env">,
  ...[index, shards, folder, startAt, workload, env = {}]: [
    ...ShardArgs,
    env?: Record<string, string>,
  ]
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
    { env: { ...process.env, ...server.env, ...env } },
  );
  return { child, result: outputOf(child) };
}

describe.concurrent.each(Object.keys(servers))("distributed runs on %s", (serverName) => {
  let server: Server;

  /** How long a shard process took here to reach the barrier, spawn to ready marker. */
  let startupMs = 0;

  /** A shard process of this server; `startAt` is shared by the run's shards. */
  const shard = (...args: [...ShardArgs, env?: Record<string, string>]) =>
    spawnShard(server, ...args);

  beforeAll(async () => {
    server = await (servers[serverName] as () => Promise<Server>)();
    // Measured, not assumed: a test that needs shards on time sets their deadline from it.
    const folder = newFolder();
    const spawnedMs = Date.now();
    const probe = shard(0, 2, folder, new Date().toISOString(), [
      ...["--clients", "2", "--samples", "2", "--size", "1KiB"],
    ]);
    const ended = probe.result.then(({ code, stderr }) => {
      throw new Error(`the probe shard ended (${code}) before the barrier: ${stderr}`);
    });
    await Promise.race([whenListed(`taillab/${folder.runId}/ready-at/`), ended]);
    startupMs = Date.now() - spawnedMs;
    probe.child.kill("SIGKILL");
    await ended.catch(() => undefined);
  });
  afterAll(async () => {
    await server?.bucket.close();
    await server?.stop();
  });

  const merge = (folder: { uri: string }, ...extra: string[]) =>
    runCli(["merge", folder.uri, "--endpoint", server.url, "--json", ...extra], server.env);

  /** Until a key is listed under `prefix` (the bucket's, not the folder's). */
  async function whenListed(prefix: string): Promise<void> {
    while ((await server.bucket.listKeys(prefix)).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("starts 4 shards at one T0, each later phase together, and merges them into the figures of all their records", async () => {
    const folder = newFolder();
    const startAt = new Date().toISOString();
    // Shards 2 and 3 have one client for 100 requests, the others two: each phase takes them
    // about twice as long.
    const workload = ["--clients", "6", "--samples", "400", "--size", "4KiB", "--upload-records"];
    const results = await Promise.all(
      [0, 1, 2, 3].map((index) => shard(index, 4, folder, startAt, workload).result),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    // Each shard ran its share, with keys of its own, and cleaned them up.
    expect(results.map((result) => summaryOf(result).points[0]?.params)).toEqual(
      [2, 2, 1, 1].map((clients) => ({ clients, samples: 100, objectSizeBytes: 4096 })),
    );
    expect(await server.bucket.listKeys(`taillab/${folder.runId}-0/`)).toEqual([]);

    const merged = await merge(folder);
    expect(merged.code, merged.stderr).toBe(0);
    const summary = summaryOf(merged);
    expect(summary).toMatchObject({ runId: folder.runId, status: "complete" });
    // Its folder (markers, progress, results, records) is in the library now: removed.
    expect(merged.stderr).toMatch(
      new RegExp(
        `run folder ${folder.uri} removed \\(\\d+ objects\\): the run is in the results library`,
      ),
    );
    expect(await server.bucket.listKeys(`taillab/${folder.runId}/`)).toEqual([]);
    expect(summary.points[0]?.params).toEqual({ clients: 6, samples: 400, objectSizeBytes: 4096 });
    const distributed = summary.distributed;
    expect(distributed?.merged).toEqual([0, 1, 2, 3]);
    expect(distributed?.shards.map((each) => each.status)).toEqual(Array(4).fill("complete"));
    console.log(
      `${serverName}: start spread of 4 shard processes ${distributed?.startSpreadMs} ms, clock skew ${distributed?.clockSkewMs} ms (± ${distributed?.clockSkewBoundMs} ms)`,
    );
    for (const phase of summary.points[0]?.phases ?? []) {
      expect(phase.requests).toBe(400);
      // The shards' client health, merged: whether any shard's client was the bottleneck, which.
      expect(phase.client?.boundShards).toBeDefined();
      expect(phase.client?.verdict.keptUp).toBe(phase.client?.boundShards?.length === 0);
      expect(phase.client?.figures.starts).toBe(400);
    }
    const shown = await runCli(["runs", "show", folder.runId]);
    expect(shown.stdout).toMatch(/Distributed: 4 shards, 4 merged; T0 /);
    expect(shown.stdout).toMatch(/shard 3: complete, started \+[\d.]+ ms from T0/);

    // One histogram of every shard's records (the library rebuilds the run from them) gives the
    // same figures as the merged histograms.
    const store = await openResultsStore(TEST_RESULTS_DIR);
    expect((await store.get(folder.runId)).recordCount).toBe(1200);
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

    // No shard's reads start before every shard's writes ended, nor its deletes before the reads.
    const spans = new Map<string, { firstStartUs: number; lastEndUs: number }>();
    for await (const { record } of store.records(folder.runId)) {
      const span = spans.get(record.op) ?? { firstStartUs: Infinity, lastEndUs: -Infinity };
      span.firstStartUs = Math.min(span.firstStartUs, record.intendedStartUs);
      span.lastEndUs = Math.max(span.lastEndUs, record.endUs);
      spans.set(record.op, span);
    }
    const [put, get, del] = ["PUT", "GET", "DELETE"].map((op) => spans.get(op)!);
    expect(get!.firstStartUs).toBeGreaterThan(put!.lastEndUs);
    expect(del!.firstStartUs).toBeGreaterThan(get!.lastEndUs);
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

  it("aborts at the deadline, names the shard that never started and turns a late joiner away", async () => {
    // The deadline is a time of day: on a busy machine a shard process may itself reach the
    // barrier after it (one took 3.5 s at a load of 10, another over 15 s at 17), which tells
    // another story than the missing shard 2. The first try gives a few times what one shard
    // took to start here; a try whose shards came late is run again with twice the time.
    const attempt = async (timeoutMs: number) => {
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
        `${timeoutMs}ms`,
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
    let timeoutMs = Math.max(8_000, 4 * startupMs);
    let outcome = await attempt(timeoutMs);
    while (outcome === null) outcome = await attempt((timeoutMs *= 2));
    const { folder, waiting, late } = outcome;
    expect(late.code).toBe(3);
    expect(late.stderr).toMatch(/the run was aborted by shard|after the barrier's deadline/);
    for (const result of waiting) {
      expect(result.code, result.stderr).toBe(3);
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

  // Cheap on either server, but one is enough: the check reads any server's Date header.
  it.runIf(serverName === "testbed")(
    "refuses a shard whose clock is 3 s ahead at the barrier (exit 3, reason clock), aborts the other, and keeps the run in the library naming it",
    async () => {
      const folder = newFolder();
      const startAt = new Date().toISOString();
      const workload = ["--clients", "2", "--samples", "20", "--size", "1KiB"];
      const [onTime, ahead] = await Promise.all([
        shard(0, 2, folder, startAt, workload).result,
        shard(1, 2, folder, startAt, workload, { TAILLAB_TEST_CLOCK_SKEW_MS: "3000" }).result,
      ]);
      expect(ahead.code, ahead.stderr).toBe(3);
      expect(ahead.stderr).toMatch(
        // Told apart at the first Date header: the offset is known to ± 0.5 s.
        /shard 1: this machine's clock is about [23]\.\d s ahead of the storage server's \(± 0\.\d\d s, from its Date header\), more than the 1 s a distributed run allows/,
      );
      expect(onTime.code, onTime.stderr).toBe(3);
      expect(onTime.stderr).toMatch(
        /shard 0: the run was aborted by shard 1 \(shard 1: its clock more than 1 s off the storage server's\); not starting/,
      );
      // Nothing was measured: no shard's keys were written.
      expect(await server.bucket.listKeys(`taillab/${folder.runId}-0/`)).toEqual([]);

      const merged = await merge(folder);
      expect(merged.code, merged.stderr).toBe(3);
      const distributed = summaryOf(merged).distributed;
      expect(distributed).toMatchObject({ t0: null, startSpreadMs: null, merged: [1] });
      expect(distributed?.shards[1]).toMatchObject({ status: "failed", startOffsetMs: null });
      const clock = distributed?.shards[1]?.clock;
      expect(Math.abs(clock!.offsetMs + 3000)).toBeLessThanOrEqual(clock!.boundMs);
      expect(distributed?.shards[1]?.problem).toMatch(/clock is about [23]\.\d s ahead/);
      expect(distributed?.shards[0]).toMatchObject({ status: "missing" });
      expect(distributed?.shards[0]?.problem).toMatch(
        /^did not start: shard 1 gave up at the start barrier/,
      );
      const shown = await runCli(["runs", "show", folder.runId]);
      expect(shown.stdout).toMatch(/Distributed: 2 shards, 1 merged; never started/);
      expect(shown.stdout).toMatch(
        /shard 1: failed, .*clock is about [23]\.\d s ahead of the storage server's/,
      );
    },
  );

  it("refuses a second shard of one index (412), and merges the others' figures when a shard is killed mid-run, naming it", async () => {
    const folder = newFolder();
    const startAt = new Date().toISOString();
    // An open loop lasts its schedule however fast the server is: 4 s to kill shard 2 in.
    const workload = [
      ...["--clients", "3", "--size", "1KiB", "--phases", "write"],
      ...["--rate", "300/s", "--arrivals", "fixed", "--duration", "4s"],
    ];
    const shards = [0, 1, 1, 2].map((index) => shard(index, 3, folder, startAt, workload));
    const victim = shards[3]!;
    // Killed once it has written progress and objects of its own (its progress can come before
    // its first PUT lands): it started, measured, and never ends.
    await whenListed(`taillab/${folder.runId}/progress/2`);
    await whenListed(`taillab/${folder.runId}-2/`);
    victim.child.kill("SIGKILL");
    const [first, one, again, killed] = await Promise.all(shards.map((each) => each.result));
    expect(killed?.code).toBe(null);
    expect(first?.code, first?.stderr).toBe(0);
    const ones = [one!, again!];
    expect(ones.map((result) => result.code).sort()).toEqual([0, 3]);
    expect(ones.find((result) => result.code === 3)?.stderr).toMatch(
      /another shard already claimed index 1/,
    );
    const merged = await merge(folder, "--keep-run-folder");
    expect(merged.code).toBe(1);
    const summary = summaryOf(merged);
    expect(summary.status).toBe("stopped");
    expect(summary.distributed?.merged).toEqual([0, 1]);
    expect(summary.distributed?.shards[2]).toMatchObject({ status: "missing" });
    expect(summary.distributed?.shards[2]?.problem).toMatch(/started but left no result/);
    expect(merged.stderr).toContain(`run folder ${folder.uri} kept (--keep-run-folder)`);
    expect(await server.bucket.listKeys(`taillab/${folder.runId}/done/`)).not.toEqual([]);
    // What the killed shard wrote and never cleaned up, counted at the merge and named with the
    // command that removes it, until that command ran.
    const killedKeys = await server.bucket.listKeys(`taillab/${folder.runId}-2/`);
    expect(killedKeys.length).toBeGreaterThan(0);
    expect(summary.distributed?.shards[2]?.objectsLeft).toBe(killedKeys.length);
    const objects = killedKeys.length === 1 ? "1 object" : `${killedKeys.length} objects`;
    const leftLine = `left on the server: ${objects} of shard 2 (killed mid-run, before its cleanup) under taillab/${folder.runId}-2/ in bucket loadgen; taillab cleanup ${folder.runId} removes them`;
    expect(merged.stderr).toContain(leftLine);
    expect((await runCli(["runs", "show", folder.runId])).stdout).toContain(leftLine);
    const cleaned = await runCli(["cleanup", folder.runId], server.env);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(await server.bucket.listKeys(`taillab/${folder.runId}-2/`)).toEqual([]);
    expect((await runCli(["runs", "show", folder.runId])).stdout).not.toContain(
      "left on the server",
    );
    // Nothing else lost: shards 0 and 1 sent every request of the schedule's 1 200 they own.
    const [put] = summary.points[0]?.phases ?? [];
    expect(put?.requests).toBe(800);
    // Merged again, it is refused: the run is in the library already.
    const repeated = await merge(folder);
    expect(repeated.code).toBe(2);
    expect(repeated.stderr).toMatch(/already in the results library/);
  });

  it("prepares a workload's objects and moves its byte budget once across the shards", async () => {
    const folder = newFolder();
    const startAt = new Date().toISOString();
    // One client each: a shard stops at its 40 KiB exactly, ten 4 KiB GETs.
    const workload = [
      ...["--clients", "3", "--samples", "1000", "--size", "4KiB", "--upload-records"],
      ...["--ops", "get:100", "--prepare", "30", "--total-bytes", "120KiB"],
    ];
    const results = await Promise.all(
      [0, 1, 2].map((index) => shard(index, 3, folder, startAt, workload).result),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const merged = await merge(folder);
    expect(merged.code, merged.stderr).toBe(0);
    const [get] = summaryOf(merged).points[0]?.phases ?? [];
    expect(get).toMatchObject({ op: "GET", requests: 30 });
    // The preparation's PUTs are recorded (not measured): 30 in all, 10 a shard, not 30 each.
    const store = await openResultsStore(TEST_RESULTS_DIR);
    let prepared = 0;
    for await (const { record } of store.records(folder.runId)) {
      if (record.op === "PUT" && !record.measured) prepared += 1;
    }
    expect(prepared).toBe(30);
  });
});

describe.concurrent("a shard's cleanup", () => {
  it("comes after its result is in the run's folder: a merge need not wait for it", async () => {
    const held = heldCleanup();
    const credentials = { accessKeyId: "SHARDKEY", secretAccessKey: "shard-secret" };
    const testbed = await startTestbed({
      credentials,
      buckets: ["loadgen"],
      interceptor: held.interceptor,
    });
    const { env, bucket } = await createServerBucket({ url: testbed.url, ...credentials });
    try {
      const folder = newFolder();
      const { result: ended } = spawnShard(
        { url: testbed.url, env },
        0,
        1,
        folder,
        new Date().toISOString(),
        [...["--clients", "2", "--samples", "20", "--size", "1KiB"]],
      );
      await held.cleanupStarting;
      const written = await bucket.listKeys(`taillab/${folder.runId}/`);
      expect(written).toContain(`taillab/${folder.runId}/shards/0/result.json`);
      expect(written).toContain(`taillab/${folder.runId}/done/0`);
      held.release();
      const { code, stderr } = await ended;
      expect(stderr).toContain("deleting the 20 objects the run wrote and did not delete");
      expect(code, stderr).toBe(1);
    } finally {
      held.release();
      await bucket.close();
      await testbed.close();
    }
  });
});

describe.concurrent("taillab merge of a folder where two processes ran as one shard", () => {
  it("refuses it in one line naming the shard, exit 2, and adds nothing to the library", async () => {
    const server = await servers.testbed!();
    try {
      const folder = newFolder();
      const startAt = new Date().toISOString();
      const workload = ["--clients", "2", "--samples", "20", "--size", "1KiB"];
      const results = await Promise.all(
        [0, 1].map((index) => spawnShard(server, index, 2, folder, startAt, workload).result),
      );
      for (const { code, stderr } of results) expect(code, stderr).toBe(0);
      // What a second shard 0 leaves on a server that let it claim index 0 too (If-None-Match
      // ignored): a ready-at marker of its own; its result overwrote the first one's.
      const readyAt = `taillab/${folder.runId}/ready-at/`;
      const [marker] = await server.bucket.listKeys(`${readyAt}0@`);
      const transport = createTransport(
        "fast",
        {
          url: server.url,
          region: "us-east-1",
          addressing: "path",
          credentials: {
            accessKeyId: server.env.AWS_ACCESS_KEY_ID ?? "",
            secretAccessKey: server.env.AWS_SECRET_ACCESS_KEY ?? "",
          },
          bucket: "loadgen",
          maxConnections: 1,
        },
        () => 0,
      );
      const second = `${readyAt}0@${Number(marker?.slice(`${readyAt}0@`.length)) + 1}`;
      expect((await transport.putObject(second, Buffer.alloc(0))).error).toBeNull();
      await transport.close();

      const merged = await runCli(
        ["merge", folder.uri, "--endpoint", server.url, "--json"],
        server.env,
      );
      expect(merged.code).toBe(2);
      expect(merged.stderr).toBe(
        `taillab merge: results: s3://loadgen/taillab/${folder.runId}/: shard 0 became ready twice (two ready-at markers): two processes ran as one shard, and one's result overwrote the other's; this run cannot be merged\n`,
      );
      const store = await openResultsStore(TEST_RESULTS_DIR);
      expect((await store.list()).map((run) => run.id)).not.toContain(folder.runId);
    } finally {
      await server.bucket.close();
      await server.stop();
    }
  });
});

// After the others, alone in this file: its healthy shard gives up on a request after 3 s, and
// the testbed answering it runs in this process, which the others' tests keep busy.
describe("a shard whose server stops answering", () => {
  it("ends at once and says so in its result; the other shard is not held at the phase gate for the barrier timeout, and the merge names it", async () => {
    const credentials = { accessKeyId: "SHARDKEY", secretAccessKey: "shard-secret" };
    const testbed = await startTestbed({ credentials, buckets: ["loadgen"], profile: "steady" });
    const { env, bucket } = await createServerBucket({ url: testbed.url, ...credentials });
    const { port } = new URL(testbed.url);
    // Both shards reach the server through a proxy (the same endpoint: a merge wants one spec)
    // that will swallow the answers of shard 1's data requests (those under its keys,
    // `taillab/<run>-1/`), never its markers' nor shard 0's: shard 1 sees its server die and
    // can still say so in the run's folder.
    const proxy = await startDrippingProxy({ host: "127.0.0.1", port: Number(port) });
    try {
      const folder = newFolder();
      const startAt = new Date().toISOString();
      // The barrier timeout is far beyond the test's own: a shard held for it fails the test.
      const workload = [
        ...["--clients", "2", "--size", "1KiB", "--request-timeout", "3s"],
        ...["--rate", "200/s", "--duration", "5s", "--barrier-timeout", "30m"],
      ];
      const healthy = spawnShard({ url: proxy.url, env }, 0, 2, folder, startAt, workload);
      const dying = spawnShard({ url: proxy.url, env }, 1, 2, folder, startAt, workload);
      const dataOf = `taillab/${folder.runId}-1/`;
      while ((await bucket.listKeys(dataOf)).length < 20) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      proxy.hang((sent) => sent.includes(dataOf) || sent.includes(encodeURIComponent(dataOf)));
      const [kept, lost] = await Promise.all([healthy.result, dying.result]);

      expect(lost.stdout, lost.stderr).not.toBe("");
      const lostSummary = summaryOf(lost);
      expect(lostSummary.status, lost.stderr).toBe("serverLost");
      expect(lostSummary.serverGone?.notRun.map((phase) => phase.phase)).toEqual(["GET", "DELETE"]);
      expect(kept.code, kept.stderr).toBe(0);
      expect(summaryOf(kept).points[0]?.phases.map((phase) => phase.op)).toEqual([
        "PUT",
        "GET",
        "DELETE",
      ]);

      const merged = await runCli(["merge", folder.uri, "--endpoint", testbed.url, "--json"], env);
      expect(merged.stdout, merged.stderr).not.toBe("");
      const summary = summaryOf(merged);
      expect(summary.status).toBe("serverLost");
      expect(summary.distributed?.shards[1]).toMatchObject({ status: "serverLost" });
      expect(summary.distributed?.shards[1]?.problem).toMatch(
        /^its server stopped answering at \S+ and did not answer again \(ClientTimeout\): it ended there; not run: GET \(point 1\), DELETE \(point 1\)$/,
      );
      proxy.pass();
      expect((await runCli(["cleanup", lostSummary.runId], env)).code).toBe(0);
    } finally {
      await proxy.close();
      await bucket.close();
      await testbed.close();
    }
  });
});
