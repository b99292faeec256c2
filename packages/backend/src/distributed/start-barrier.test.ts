import { CreateBucketCommand, type S3Client } from "@aws-sdk/client-s3";
import { LatencyProfileSchema } from "@taillab/api";
import { clockIsOff } from "@taillab/core";
import { startMinio, startS3rver } from "@taillab/test-support";
import {
  createLatencyProfileInterceptor,
  startTestbed,
  type RequestInterceptor,
  type Testbed,
} from "@taillab/testbed";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { READY_AT_PREFIX, STOP_KEY } from "./barrier-markers.ts";
import { createMarkerStore, type MarkerStore } from "./bucket-markers.ts";
import {
  passStartBarrier,
  StartBarrierError,
  type BarrierPassed,
  type StartBarrierOptions,
} from "./start-barrier.ts";
import { barrierS3Client, type BarrierShardInput } from "./test-support/barrier-shard.ts";

/**
 * The start barrier against two real S3 servers: the embedded testbed and MinIO; then against
 * testbeds that fail requests or whose clock is off. No test waits for a deadline: a shard's
 * clock is moved past it once the test has seen what it needs, so a slow machine cannot make a
 * shard late that the test meant to be on time.
 */

const SHARD_SCRIPT = fileURLToPath(new URL("./test-support/barrier-shard.ts", import.meta.url));
const BUCKET = "barrier";
/** Far enough that no shard is late by it: the tests that need a deadline to pass move clocks. */
const FAR_MS = 600_000;

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

/** A run of its own: a fresh prefix in the bucket. */
function newRun(client: S3Client): { prefix: string; markers: MarkerStore } {
  const prefix = `runs/${randomUUID()}/`;
  return { prefix, markers: createMarkerStore({ client, bucket: BUCKET, prefix }) };
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

/** A clock the test moves: shards given it see the deadline pass when the test says so. */
function movableClock() {
  let aheadMs = 0;
  return {
    now: () => Date.now() + aheadMs,
    /** From now on the shards' clocks read past `deadlineMs` (and its grace). */
    passDeadline(deadlineMs: number) {
      aheadMs = deadlineMs + 60_000 - Date.now();
    },
    /** From now on the shards' clocks read `ms` later. */
    skip(ms: number) {
      aheadMs += ms;
    },
  };
}

/** Until `count` keys are under `under`. */
async function whenListed(markers: MarkerStore, under: string, count: number): Promise<void> {
  while ((await markers.list(under)).length < count) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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

  const run = () => newRun(client);

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

  it("starts 4 shard processes together at one T0 and measures their spread", async () => {
    const { prefix } = run();
    const now = Date.now();
    const common = { bucket: BUCKET, prefix, shards: 4, startAtMs: now, graceMs: 1_000 };
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map((index) => shardProcess({ ...common, index, deadlineMs: now + FAR_MS })),
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
    const deadlineMs = Date.now() + FAR_MS;
    const clock = movableClock();
    const waiting = [0, 1, 2].map((index) =>
      failureOf(inProcess(markers, { index, shards: 4, deadlineMs, now: clock.now })),
    );
    // All three were ready by the deadline; then it passes.
    await whenListed(markers, "ready-at/", 3);
    clock.passDeadline(deadlineMs);
    const failures = await Promise.all(waiting);
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
    const deadlineMs = Date.now() + FAR_MS;
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
    const deadlineMs = Date.now() + FAR_MS;
    const clock = movableClock();
    const first = failureOf(
      inProcess(markers, { index: 0, shards: 2, deadlineMs, now: clock.now }),
    );
    await whenListed(markers, "ready-at/", 1);
    clock.passDeadline(deadlineMs);
    expect((await first).reason).toBe("deadline");
    const late = await failureOf(
      inProcess(markers, { index: 1, shards: 2, deadlineMs, now: clock.now }),
    );
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
        deadlineMs: Date.now() + FAR_MS,
        signal: stop.signal,
      }),
    );
    setTimeout(() => stop.abort(), 300);
    expect((await waiting).reason).toBe("stopped");
    const other = await failureOf(
      inProcess(markers, { index: 1, shards: 2, deadlineMs: Date.now() + FAR_MS }),
    );
    expect(other.reason).toBe("aborted");
  });

  it("gives up at the run's stop marker and says so with its own abort marker", async () => {
    const { markers } = run();
    const waiting = failureOf(
      inProcess(markers, { index: 0, shards: 2, deadlineMs: Date.now() + FAR_MS }),
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

describe("the start barrier on a testbed that fails requests or whose clock is off", () => {
  const credentials = { accessKeyId: "BARRIERKEY", secretAccessKey: "barrier-secret" };
  let testbed: Testbed | undefined;
  let client: S3Client | undefined;

  async function start(options: { interceptor?: RequestInterceptor }) {
    testbed = await startTestbed({ credentials, buckets: [BUCKET], ...options });
    client = barrierS3Client({ url: testbed.url, ...credentials });
    return newRun(client);
  }
  afterEach(async () => {
    client?.destroy();
    await testbed?.close();
  });

  it("passes through SlowDown answers and resets, retried with back-off", async () => {
    // The testbed's error rates on the markers' writes (its profiles shape the data plane), and
    // every fourth listing answered SlowDown, every seventh reset, which no profile touches.
    const profiled = createLatencyProfileInterceptor({
      profile: LatencyProfileSchema.parse({
        serviceTime: { kind: "none" },
        errors: { slowDownRate: 0.3, resetRate: 0.2 },
      }),
      seed: 7,
      replica: 0,
    });
    const faults = { on: true, slowDown: 0, reset: 0, listings: 0 };
    // A grace far beyond the default 2 s: on a busy machine (load 25) one faulted listing and
    // its back-off took longer than that, and this test is about the retries, not the grace.
    const graceMs = 60_000;
    // Once the last shard is ready, the shards' clocks skip all but the default 2 s of the wait
    // for T0 (a sleep): the retries after T0 keep the whole grace.
    const clock = movableClock();
    let readyMarkers = 0;
    const { markers } = await start({
      interceptor: async (request) => {
        if (!faults.on) return;
        if (request.operation !== "ListObjectsV2") {
          const decision = await profiled(request);
          const fault = decision?.fault;
          if (fault && "resetConnection" in fault) faults.reset += 1;
          else if (fault) faults.slowDown += 1;
          else if (request.key?.includes(`/${READY_AT_PREFIX}`) && ++readyMarkers === 3) {
            clock.skip(graceMs - 2_000);
          }
          return decision;
        }
        faults.listings += 1;
        if (faults.listings % 7 === 0) {
          faults.reset += 1;
          return { fault: { resetConnection: true } };
        }
        if (faults.listings % 4 === 0) {
          faults.slowDown += 1;
          return {
            fault: { status: 503, code: "SlowDown", message: "Please reduce your request rate." },
          };
        }
      },
    });
    const deadlineMs = Date.now() + FAR_MS;
    const passed = await Promise.all(
      [0, 1, 2].map((index) =>
        inProcess(markers, { index, shards: 3, deadlineMs, graceMs, pollMs: 200, now: clock.now }),
      ),
    );
    expect(new Set(passed.map((shard) => shard.t0Ms)).size).toBe(1);
    expect(faults.slowDown).toBeGreaterThan(0);
    expect(faults.reset).toBeGreaterThan(0);
    expect(testbed?.stats().resets).toBe(faults.reset);
    faults.on = false;
    expect(await markers.list("abort/")).toEqual([]);
  });

  it("gives up with its abort marker when the bucket keeps failing until the deadline", async () => {
    const deadlineMs = Date.now() + FAR_MS;
    const clock = movableClock();
    let failedListings = 0;
    const { markers } = await start({
      interceptor: ({ operation }) => {
        if (operation !== "ListObjectsV2") return;
        failedListings += 1;
        // Retried a few times; then the deadline passes and the next failure is the last.
        if (failedListings === 3) clock.passDeadline(deadlineMs);
        return {
          fault: { status: 503, code: "SlowDown", message: "Please reduce your request rate." },
        };
      },
    });
    const failure = await failureOf(
      inProcess(markers, { index: 0, shards: 2, deadlineMs, now: clock.now }),
    );
    expect(failure.reason).toBe("storage");
    expect(failure.message).toMatch(
      /^shard 0: the run's folder could not be used \(listing s3:\/\/barrier\/runs\/.+\/abort\/: SlowDown: .+\); not starting$/,
    );
    expect(failedListings).toBeGreaterThanOrEqual(3);
    const written = await markers.get("abort/0");
    expect(JSON.parse(Buffer.from(written ?? []).toString("utf8"))).toMatchObject({
      index: 0,
      reason: "storage",
    });
  });

  it.each([
    { skewMs: 1_500, direction: "ahead of" },
    { skewMs: -1_500, direction: "behind" },
  ])(
    "refuses a shard whose clock is $skewMs ms off the server's, and the other aborts naming why",
    async ({ skewMs, direction }) => {
      // One Date header bounds the offset to ± 0.5 s: by where in its second the server's clock
      // was, it reads 1.5 s off as anything from 1.0 to 2.0 s, and the check stops as soon as
      // the whole range is past the 1 s limit. The figure said is the middle of that range.
      const { prefix, markers } = await start({});
      const now = () => Date.now() + skewMs;
      const offClock = createMarkerStore({ client: client!, bucket: BUCKET, prefix, now });
      const deadlineMs = Date.now() + FAR_MS;
      const other = failureOf(inProcess(markers, { index: 1, shards: 2, deadlineMs }));
      const refused = await failureOf(
        inProcess(offClock, { index: 0, shards: 2, deadlineMs, now }),
      );
      expect(refused.reason).toBe("clock");
      expect(refused.message).toMatch(
        new RegExp(
          `^shard 0: this machine's clock is about [12]\\.\\d s ${direction} the storage server's \\(± 0\\.\\d\\d s, from its Date header\\), more than the 1 s a distributed run allows: .*; not starting$`,
        ),
      );
      const { clock } = refused;
      expect(clock).not.toBeNull();
      expect(clockIsOff(clock!)).toBe(true);
      // Server minus local: a clock ahead has a negative offset.
      expect(Math.abs(-skewMs - clock!.offsetMs)).toBeLessThanOrEqual(clock!.boundMs);
      const said = Number(/about (\d\.\d) s/.exec(refused.message)?.[1]);
      expect(Math.abs(said * 1000 - Math.abs(clock!.offsetMs))).toBeLessThanOrEqual(50);
      const written = await markers.get("abort/0");
      expect(JSON.parse(Buffer.from(written ?? []).toString("utf8"))).toMatchObject({
        index: 0,
        reason: "clock",
        clock,
      });
      // It never counted as ready; the other shard does not start without it.
      expect(
        (await markers.list("ready-at/")).every((name) => name.startsWith("ready-at/1@")),
      ).toBe(true);
      const aborted = await other;
      expect(aborted.reason).toBe("aborted");
      expect(aborted.message).toBe(
        "shard 1: the run was aborted by shard 0 (shard 0: its clock more than 1 s off the storage server's); not starting",
      );
    },
  );
});

describe("the start barrier on a server that ignores If-None-Match (s3rver)", () => {
  it("every shard refuses to start, in one line naming the server, and none claims its index", async () => {
    const s3rver = await startS3rver([BUCKET]);
    const client = barrierS3Client(s3rver);
    try {
      const { markers } = newRun(client);
      const deadlineMs = Date.now() + FAR_MS;
      const failures = await Promise.all(
        [0, 0, 1].map((index) =>
          failureOf(inProcess(markers, { index, shards: 2, deadlineMs, endpoint: s3rver.url })),
        ),
      );
      for (const failure of failures) {
        expect(failure.reason).toBe("unconditional");
        expect(failure.message).not.toContain("\n");
        expect(failure.message).toMatch(
          new RegExp(
            `^shard [01]: the server at ${s3rver.url} does not honour If-None-Match \\(a create-only PUT of s3://${BUCKET}/runs/\\S+/if-none-match/\\S+ overwrote it\\), so shards cannot claim their indexes safely; .*; not starting$`,
          ),
        );
      }
      expect(await markers.list("ready/")).toEqual([]);
    } finally {
      client.destroy();
      await s3rver.stop();
    }
  });
});
