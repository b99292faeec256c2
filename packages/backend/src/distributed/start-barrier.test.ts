import { CreateBucketCommand, type S3Client } from "@aws-sdk/client-s3";
import { startMinio } from "@taillab/test-support";
import { startTestbed } from "@taillab/testbed";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STOP_KEY } from "./barrier-markers.ts";
import { createMarkerStore, type MarkerStore } from "./bucket-markers.ts";
import {
  passStartBarrier,
  StartBarrierError,
  type BarrierPassed,
  type StartBarrierOptions,
} from "./start-barrier.ts";
import { barrierS3Client, type BarrierShardInput } from "./test-support/barrier-shard.ts";

/** The start barrier against two real S3 servers: the embedded testbed and MinIO. */

const SHARD_SCRIPT = fileURLToPath(new URL("./test-support/barrier-shard.ts", import.meta.url));
const BUCKET = "barrier";

interface Server {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

const servers: Record<string, () => Promise<Server>> = {
  testbed: async () => {
    const credentials = { accessKeyId: "BARRIERKEY", secretAccessKey: "barrier-secret" };
    const testbed = await startTestbed({ credentials, buckets: [BUCKET] });
    return { url: testbed.url, ...credentials, stop: () => testbed.close() };
  },
  minio: async () => {
    const minio = await startMinio();
    return { ...minio, stop: () => minio.stop() };
  },
};

type ShardOutcome =
  { t0Ms: number; startedMs: number } | { failure: string; shards: number[]; message: string };

describe.each(Object.keys(servers))("the start barrier on %s", (serverName) => {
  let server: Server;
  let client: S3Client;

  beforeAll(async () => {
    server = await (servers[serverName] as () => Promise<Server>)();
    client = barrierS3Client(server);
    if (serverName === "minio") await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  });
  afterAll(async () => {
    client?.destroy();
    await server?.stop();
  });

  /** A run of its own: a fresh prefix in the bucket. */
  function run(): { prefix: string; markers: MarkerStore } {
    const prefix = `runs/${randomUUID()}/`;
    return { prefix, markers: createMarkerStore({ client, bucket: BUCKET, prefix }) };
  }

  function shardProcess(input: Omit<BarrierShardInput, "url" | "accessKeyId" | "secretAccessKey">) {
    const { url, accessKeyId, secretAccessKey } = server;
    const child = spawn(
      process.execPath,
      [SHARD_SCRIPT, JSON.stringify({ url, accessKeyId, secretAccessKey, ...input })],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    return new Promise<ShardOutcome>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => {
        if (code === 0) resolve(JSON.parse(output) as ShardOutcome);
        else reject(new Error(`shard ${input.index} exited with ${code}: ${output}`));
      });
    });
  }

  async function failureOf(promise: Promise<unknown>): Promise<StartBarrierError> {
    const error = await promise.then(
      () => new Error("the barrier passed"),
      (failure: unknown) => failure,
    );
    if (!(error instanceof StartBarrierError)) throw error;
    return error;
  }

  const inProcess = (
    markers: MarkerStore,
    options: Omit<StartBarrierOptions, "markers" | "startAtMs">,
  ) => passStartBarrier({ markers, startAtMs: 0, graceMs: 300, pollMs: 50, ...options });

  it("starts 4 shard processes together at one T0 and measures their spread", async () => {
    const { prefix } = run();
    const now = Date.now();
    const common = { bucket: BUCKET, prefix, shards: 4, startAtMs: now, graceMs: 1_000 };
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map((index) => shardProcess({ ...common, index, deadlineMs: now + 60_000 })),
    );
    const started = outcomes.map((outcome) => {
      if (!("t0Ms" in outcome)) throw new Error(outcome.message);
      return outcome;
    });
    const t0s = new Set(started.map((outcome) => outcome.t0Ms));
    expect(t0s.size).toBe(1);
    const [t0Ms] = t0s;
    for (const { startedMs } of started) expect(startedMs).toBeGreaterThanOrEqual(t0Ms as number);
    const starts = started.map((outcome) => outcome.startedMs);
    const spreadMs = Math.max(...starts) - Math.min(...starts);
    console.log(`${serverName}: start spread of 4 shard processes ${spreadMs.toFixed(3)} ms`);
  });

  it("aborts at the deadline and names the shard that never became ready", async () => {
    const { markers } = run();
    const deadlineMs = Date.now() + 1_500;
    const failures = await Promise.all(
      [0, 1, 2].map((index) => failureOf(inProcess(markers, { index, shards: 4, deadlineMs }))),
    );
    for (const failure of failures) {
      expect(failure.reason === "deadline" || failure.reason === "aborted").toBe(true);
    }
    const atDeadline = failures.filter((failure) => failure.reason === "deadline");
    expect(atDeadline.length).toBeGreaterThan(0);
    for (const failure of atDeadline) {
      expect(failure.shards).toEqual([3]);
      expect(failure.message).toMatch(/shard 3 of 4 not ready by the deadline/);
    }
    expect((await markers.list("abort/")).length).toBeGreaterThan(0);
  });

  it("refuses a second shard of the same index (412) and still starts the others", async () => {
    const { markers } = run();
    const deadlineMs = Date.now() + 30_000;
    const [first, second, other] = await Promise.allSettled([
      inProcess(markers, { index: 0, shards: 2, deadlineMs }),
      inProcess(markers, { index: 0, shards: 2, deadlineMs }),
      inProcess(markers, { index: 1, shards: 2, deadlineMs }),
    ]);
    const zeros = [first, second];
    const refused = zeros.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as StartBarrierError;
    expect(error.reason).toBe("duplicate-index");
    expect(error.message).toMatch(/another shard already claimed index 0/);
    expect(zeros.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(other.status).toBe("fulfilled");
    // The server's Date header was read: same machine, so well within a second.
    const { clock } = (other as PromiseFulfilledResult<BarrierPassed>).value;
    expect(Math.abs(clock?.offsetMs ?? Infinity)).toBeLessThan(1_000 + (clock?.boundMs ?? 0));
    expect(await markers.list("abort/")).toEqual([]);
  });

  it("turns away a shard that joins after the run was aborted", async () => {
    const { markers } = run();
    const deadlineMs = Date.now() + 1_000;
    await failureOf(inProcess(markers, { index: 0, shards: 2, deadlineMs }));
    const late = await failureOf(inProcess(markers, { index: 1, shards: 2, deadlineMs }));
    expect(late.reason).toBe("aborted");
    expect(late.shards).toEqual([0]);
    expect(late.message).toMatch(/aborted by shard 0/);
    expect(await markers.list("ready/1")).toEqual([]);
  });

  it("stops waiting when asked and aborts the run for the others", async () => {
    const { markers } = run();
    const stop = new AbortController();
    const waiting = failureOf(
      inProcess(markers, {
        index: 0,
        shards: 2,
        deadlineMs: Date.now() + 60_000,
        signal: stop.signal,
      }),
    );
    setTimeout(() => stop.abort(), 300);
    expect((await waiting).reason).toBe("stopped");
    const other = await failureOf(
      inProcess(markers, { index: 1, shards: 2, deadlineMs: Date.now() + 60_000 }),
    );
    expect(other.reason).toBe("aborted");
  });

  it("gives up at the run's stop marker and says so with its own abort marker", async () => {
    const { markers } = run();
    const waiting = failureOf(
      inProcess(markers, { index: 0, shards: 2, deadlineMs: Date.now() + 60_000 }),
    );
    await markers.put(STOP_KEY, "{}");
    const stopped = await waiting;
    expect(stopped.reason).toBe("stopped");
    expect(stopped.message).toMatch(/the run was stopped; not starting/);
    expect((await markers.list("abort/")).sort()).toEqual(["abort/0", "abort/stop"]);
  });

  it("does not let a shard ready after the deadline complete the barrier", async () => {
    const { markers } = run();
    const late = await failureOf(
      inProcess(markers, { index: 0, shards: 1, deadlineMs: Date.now() - 1 }),
    );
    expect(late.reason).toBe("late");
    expect(await markers.list("abort/")).toEqual(["abort/0"]);
  });
});
