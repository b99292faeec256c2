import {
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import {
  MAX_PROFILE_DURATION_MS,
  resolveLatencyProfile,
  type LatencyProfileInput,
} from "@taillab/api";
import { createRandom } from "@taillab/core";
import { afterEach, describe, expect, it } from "vitest";
import { SERVICE_TIME_HEADER, startTestbed, type Testbed, type TestbedOptions } from "./index.ts";
import { replicaSeed } from "./latency-profile-interceptor.ts";
import { planRequest } from "./latency-sampler.ts";
import { clientFor, sdkError, until } from "./test-support/testbed-fixture.ts";

const bucket = "replicas";
const running: Testbed[] = [];
const clients: S3Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await Promise.all(running.splice(0).map((testbed) => testbed.close()));
});

async function start(options: TestbedOptions): Promise<Testbed> {
  const testbed = await startTestbed({ buckets: [bucket], ...options });
  running.push(testbed);
  return testbed;
}

function client(url: string): S3Client {
  const created = clientFor({ url } as Testbed);
  clients.push(created);
  return created;
}

interface Timed {
  status: number;
  latencyMs: number;
  /** From the testbed's service-time header. */
  serviceMs: number;
  body: string;
}

async function timedRequest(
  url: string,
  init: RequestInit & { path?: string } = {},
): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(`${url}/${bucket}/${init.path ?? "object"}`, init);
  const body = await response.text();
  const header = response.headers.get(SERVICE_TIME_HEADER);
  if (header === null) throw new Error(`no ${SERVICE_TIME_HEADER} header`);
  return {
    status: response.status,
    latencyMs: performance.now() - started,
    serviceMs: Number(header) / 1000,
    body,
  };
}

const put = (url: string, path = "object") =>
  timedRequest(url, { method: "PUT", body: "payload", path });

function percentile(values: readonly number[], level: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * level) / 100))] as number;
}

const median = (values: readonly number[]) => percentile(values, 50);

/** The service-time stamp is in whole microseconds. */
const STAMP_ROUNDING_MS = 0.0005;

/** The delays replica `replica` of a testbed started with `profile` and `seed` plans, in order. */
function plannedDelays(
  profile: LatencyProfileInput | "steady",
  seed: number,
  replica = 0,
): () => { serviceMs: number; stallMs: number } {
  const resolved = resolveLatencyProfile(profile);
  const random = createRandom(replicaSeed(seed, replica));
  return () => {
    const plan = planRequest(resolved, random);
    if (plan.kind !== "serve") throw new Error(`the profile planned a ${plan.kind}`);
    return { serviceMs: plan.serviceMs, stallMs: plan.stallMs };
  };
}

describe("replicas", () => {
  it("serves one store on several ports, with stats per replica", async () => {
    const testbed = await start({ replicas: 3 });
    expect(testbed.urls).toHaveLength(3);
    expect(new Set(testbed.urls).size).toBe(3);
    expect(testbed.url).toBe(testbed.urls[0]);
    expect(testbed.replicas.map((replica) => replica.index)).toEqual([0, 1, 2]);

    const [first, second, third] = testbed.urls.map(client) as [S3Client, S3Client, S3Client];
    await first.send(new PutObjectCommand({ Bucket: bucket, Key: "shared", Body: "one store" }));
    const got = await second.send(new GetObjectCommand({ Bucket: bucket, Key: "shared" }));
    expect(await got.Body?.transformToString()).toBe("one store");
    await third.send(new HeadBucketCommand({ Bucket: bucket }));

    await until(() => testbed.stats().completed === 3);
    expect(testbed.replicas.map((replica) => replica.stats().byOperation)).toEqual([
      { PutObject: 1 },
      { GetObject: 1 },
      { HeadBucket: 1 },
    ]);
    expect(testbed.stats()).toEqual({
      received: 3,
      completed: 3,
      aborted: 0,
      resets: 0,
      served: 3,
      tiesDropped: 0,
      byOperation: { PutObject: 1, GetObject: 1, HeadBucket: 1 },
    });
  });

  it("takes consecutive ports from a fixed port", async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const probe = await startTestbed();
      const base = probe.port;
      await probe.close();
      // Another test may hold base + 1: then try again elsewhere.
      const testbed = await start({ replicas: 2, port: base }).catch(() => undefined);
      if (testbed === undefined) continue;
      expect(testbed.replicas.map((replica) => replica.port)).toEqual([base, base + 1]);
      return;
    }
    throw new Error("found no two free consecutive ports");
  });

  it.each([
    [{ replicas: 0 }, "replicas must be a whole number from 1 to 16, not 0"],
    [{ replicas: 17 }, "replicas must be a whole number from 1 to 16, not 17"],
    [{ profile: "slow" as "fast" }, 'unknown latency profile "slow"; expected one of fast, steady'],
    [
      { profile: { serviceTime: { kind: "fixed", ms: -1 } } as LatencyProfileInput },
      "invalid latency profile: serviceTime.ms: must not be negative",
    ],
    [
      {
        replicas: 2,
        profile: {
          serviceTime: { kind: "none" },
          noisyNeighbour: { replica: 2, everyMs: 10, forMs: 5, factor: 2 },
        } as LatencyProfileInput,
      },
      "the noisy neighbour is replica 2, but replicas run from 0 to 1",
    ],
    [
      { profile: "steady" as const, interceptor: () => undefined },
      "give a latency profile or an interceptor, not both",
    ],
  ])("refuses %j", async (options, message) => {
    await expect(startTestbed(options)).rejects.toThrow(`testbed: ${message}`);
  });

  it("closes the replicas that started when a later one cannot listen", async () => {
    // Replica 1 collides with a testbed already on `blocked`; replica 0 gets blocked - 1, unless
    // another test holds that port, in which case try again elsewhere.
    for (let attempt = 0; attempt < 20; attempt++) {
      const blocked = (await start({})).port;
      const error = (await start({ replicas: 2, port: blocked - 1 }).catch((e) => e)) as Error;
      if (error.message.includes(`:${blocked - 1} `)) continue;
      expect(error.message).toBe(`testbed: cannot listen on 127.0.0.1:${blocked} (EADDRINUSE)`);
      // Replica 0 let its port go again.
      expect((await start({ port: blocked - 1 })).port).toBe(blocked - 1);
      return;
    }
    throw new Error("found no free port next to a taken one");
  });
});

describe("the service-time header", () => {
  it("is on every response, also without a profile", async () => {
    const testbed = await start({});
    const answer = await put(testbed.url);
    expect(answer.status).toBe(200);
    expect(answer.serviceMs).toBeGreaterThan(0);
    expect(answer.serviceMs).toBeLessThan(answer.latencyMs);
    const head = await fetch(`${testbed.url}/${bucket}/missing`, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(Number(head.headers.get(SERVICE_TIME_HEADER))).toBeGreaterThan(0);
  });

  it("covers the injected delay, and no more than the client saw", async () => {
    const testbed = await start({ profile: { serviceTime: { kind: "fixed", ms: 50 } } });
    const answer = await put(testbed.url);
    expect(answer.serviceMs).toBeGreaterThanOrEqual(50 - STAMP_ROUNDING_MS);
    expect(answer.serviceMs).toBeLessThanOrEqual(answer.latencyMs);
  });
});

describe("latency profiles over HTTP", () => {
  // On a busy machine any request can take longer than planned, never shorter: each answer is
  // held to its own planned delay from below, and to what the client measured from above.
  it("steady: each GET takes the service time the seed planned for it, a median of about 5 ms", async () => {
    const testbed = await start({ profile: "steady", seed: 3 });
    const next = plannedDelays("steady", 3);
    await put(testbed.url);
    next(); // the PUT's
    const plannedMs: number[] = [];
    const answers: Timed[] = [];
    for (let i = 0; i < 200; i++) {
      plannedMs.push(next().serviceMs);
      answers.push(await timedRequest(testbed.url));
    }
    expect(answers.every((answer) => answer.status === 200 && answer.body === "payload")).toBe(
      true,
    );
    answers.forEach((answer, index) => {
      expect(answer.serviceMs).toBeGreaterThanOrEqual(
        (plannedMs[index] as number) - STAMP_ROUNDING_MS,
      );
      expect(answer.serviceMs).toBeLessThanOrEqual(answer.latencyMs);
    });
    expect(median(plannedMs)).toBeGreaterThan(4.5);
    expect(median(plannedMs)).toBeLessThan(5.5);
  });

  it("stalls: exactly the requests the seed picks stall, the same on every run", async () => {
    const profile: LatencyProfileInput = {
      serviceTime: { kind: "fixed", ms: 2 },
      stalls: { probability: 0.2, durationMs: 300 },
    };
    const seed = 12;
    const next = plannedDelays(profile, seed);
    const expected = Array.from({ length: 40 }, () => next().stallMs > 0);
    const stallCount = expected.filter(Boolean).length;
    expect(stallCount).toBeGreaterThan(2);

    for (let run = 0; run < 2; run++) {
      const testbed = await start({ profile, seed });
      // One at a time, so the n-th request to arrive is the n-th planned.
      const answers: Timed[] = [];
      for (let i = 0; i < expected.length; i++) {
        answers.push(await timedRequest(testbed.url, { path: "missing" }));
      }
      expect(answers.every((answer) => answer.status === 404)).toBe(true);
      answers.forEach((answer, index) => {
        const plannedMs = expected[index] ? 302 : 2;
        expect(answer.serviceMs).toBeGreaterThanOrEqual(plannedMs - STAMP_ROUNDING_MS);
      });
      // The slowest answers are the planned stalls, and only they.
      const slowest = answers
        .map((answer, index) => ({ index, serviceMs: answer.serviceMs }))
        .sort((a, b) => b.serviceMs - a.serviceMs)
        .slice(0, stallCount)
        .map((answer) => answer.index)
        .sort((a, b) => a - b);
      expect(slowest).toEqual(expected.flatMap((stalls, index) => (stalls ? [index] : [])));
    }
  });

  it("queue: with one slot and 20 ms service, five concurrent requests are served one after another", async () => {
    const testbed = await start({
      profile: { serviceTime: { kind: "fixed", ms: 20 }, queue: { slots: 1 } },
    });
    const sentMs = performance.now();
    const answeredMs: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const answer = await timedRequest(testbed.url, { path: "missing" });
        answeredMs.push(performance.now() - sentMs);
        return answer;
      }),
    );
    // No service starts before the five are sent: the n-th answer cannot come before n services
    // of 20 ms, one after another. (The server's stamps count from when it read each request,
    // which on a busy machine can be after the first was already being served.)
    answeredMs.forEach((time, index) => {
      expect(time).toBeGreaterThanOrEqual((index + 1) * 20);
    });
    for (const answer of answers) {
      expect(answer.serviceMs).toBeGreaterThanOrEqual(20 - STAMP_ROUNDING_MS);
      expect(answer.serviceMs).toBeLessThanOrEqual(answer.latencyMs);
    }
  });

  it("errors: SlowDown on every object request, while the control plane still answers", async () => {
    const testbed = await start({
      profile: { serviceTime: { kind: "fixed", ms: 50 }, errors: { slowDownRate: 1 } },
    });
    const s3 = client(testbed.url);
    for (let i = 0; i < 5; i++) {
      const error = await sdkError(s3.send(new GetObjectCommand({ Bucket: bucket, Key: "k" })));
      expect(error).toMatchObject({ name: "SlowDown", status: 503 });
    }
    const raw = await timedRequest(testbed.url);
    expect(raw.status).toBe(503);
    expect(raw.body).toContain("<Code>SlowDown</Code>");
    // Throttling answers at once: no throttled request began service, and one took less than
    // a request the same server then served with its 50 ms.
    expect(testbed.stats().served).toBe(0);
    testbed.setProfile({ serviceTime: { kind: "fixed", ms: 50 } });
    const served = await timedRequest(testbed.url, { path: "missing" });
    expect(served.status).toBe(404);
    expect(raw.serviceMs).toBeLessThan(served.serviceMs);

    const preflight = await s3.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1 }));
    expect(preflight.KeyCount).toBe(0);
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    expect(testbed.stats().byOperation).toMatchObject({
      GetObject: 7,
      ListObjectsV2: 1,
      HeadBucket: 1,
    });
  });

  it("errors: resets the connection at the reset rate", async () => {
    const testbed = await start({
      profile: { serviceTime: { kind: "none" }, errors: { resetRate: 1 } },
    });
    const error = await sdkError(
      client(testbed.url).send(new GetObjectCommand({ Bucket: bucket, Key: "k" })),
    );
    expect(error.message).toMatch(/ECONNRESET|socket hang up/);
    await until(() => testbed.stats().resets === 1);
    expect(testbed.stats()).toMatchObject({ received: 1, completed: 0, aborted: 0 });
  });

  it("counts a client that leaves while queued or being served as aborted, and frees the slot", async () => {
    // The request that leaves would hold the slot for the longest service a profile allows.
    const testbed = await start({
      replicas: 2,
      profile: { serviceTime: { kind: "fixed", ms: MAX_PROFILE_DURATION_MS }, queue: { slots: 1 } },
    });
    const url = testbed.urls[1] as string;
    const served = new AbortController();
    const queued = new AbortController();
    const servedRequest = timedRequest(url, { signal: served.signal }).catch((error) => error);
    await until(() => testbed.replicas[1]?.stats().received === 1);
    const queuedRequest = timedRequest(url, { signal: queued.signal }).catch((error) => error);
    await until(() => testbed.replicas[1]?.stats().received === 2);

    queued.abort();
    expect(await queuedRequest).toMatchObject({ name: "AbortError" });
    await until(() => testbed.replicas[1]?.stats().aborted === 1);
    served.abort();
    expect(await servedRequest).toMatchObject({ name: "AbortError" });
    await until(() => testbed.replicas[1]?.stats().aborted === 2);

    // The slot is free again (the queue is kept across the change: same slot count): the next
    // request waits only its own 400 ms, as one on the other replica, which never had a client
    // leave, does beside it. Behind the slot of the request that left it would wait a minute.
    testbed.setProfile({ serviceTime: { kind: "fixed", ms: 400 }, queue: { slots: 1 } });
    const [next, beside] = await Promise.all([
      timedRequest(url, { path: "missing" }),
      timedRequest(testbed.urls[0] as string, { path: "missing" }),
    ]);
    expect([next.status, beside.status]).toEqual([404, 404]);
    expect(next.serviceMs).toBeGreaterThanOrEqual(400 - STAMP_ROUNDING_MS);
    expect(next.serviceMs).toBeLessThan(beside.serviceMs + MAX_PROFILE_DURATION_MS / 2);
    expect(testbed.replicas[1]?.stats()).toMatchObject({ received: 3, completed: 1, aborted: 2 });
    expect(testbed.replicas[0]?.stats().received).toBe(1);
  });

  it("noisy neighbour: replica 0 is 10× slower in the last half of every 400 ms, replica 1 never", async () => {
    const noisyNeighbour = { replica: 0, everyMs: 400, forMs: 200, factor: 10 };
    const serviceMs = 5;
    // The testbed's neighbour clock starts while it starts, on this process's performance.now().
    const beforeStart = performance.now();
    const testbed = await start({
      replicas: 2,
      profile: { serviceTime: { kind: "fixed", ms: serviceMs }, noisyNeighbour },
    });
    const afterStart = performance.now();
    /**
     * Whether a request sent at `sentMs` and answered at `answeredMs` surely started service in
     * a slow window ("slow"), surely outside one ("normal"), or cannot be told ("unknown").
     */
    const windowOf = (sentMs: number, answeredMs: number) => {
      const earliest = sentMs - afterStart;
      const latest = answeredMs - beforeStart;
      const cycle = Math.floor(earliest / noisyNeighbour.everyMs) * noisyNeighbour.everyMs;
      const slowFrom = cycle + noisyNeighbour.everyMs - noisyNeighbour.forMs;
      if (earliest >= slowFrom && latest < cycle + noisyNeighbour.everyMs) return "slow";
      if (latest < slowFrom) return "normal";
      return "unknown";
    };
    const seen = { slow: [] as Timed[][], normal: [] as Timed[][] };
    // Pairs sent at once, one to each replica, until both kinds of window have been seen a few
    // times; on a busy machine that takes longer, never fewer samples.
    for (let pair = 0; pair < 2_000; pair++) {
      if (seen.slow.length >= 5 && seen.normal.length >= 20) break;
      const sentMs = performance.now();
      const answers = await Promise.all(
        testbed.urls.map((url) => timedRequest(url, { path: "missing" })),
      );
      const window = windowOf(sentMs, performance.now());
      if (window !== "unknown") seen[window].push(answers);
    }
    expect(seen.slow.length).toBeGreaterThanOrEqual(5);
    expect(seen.normal.length).toBeGreaterThanOrEqual(20);
    const replica = (pairs: Timed[][], index: number) =>
      pairs.map((pair) => (pair[index] as Timed).serviceMs);
    for (const time of replica(seen.slow, 0)) {
      expect(time).toBeGreaterThanOrEqual(noisyNeighbour.factor * serviceMs - STAMP_ROUNDING_MS);
    }
    for (const pairs of [seen.slow, seen.normal]) {
      for (const time of [...replica(pairs, 0), ...replica(pairs, 1)]) {
        expect(time).toBeGreaterThanOrEqual(serviceMs - STAMP_ROUNDING_MS);
      }
    }
    // Slowed only in its windows, and only replica 0: compared in the same moments, the others
    // take what an ordinary request takes, far less than 10×.
    const slowMedian = median(replica(seen.slow, 0));
    expect(median(replica(seen.normal, 0))).toBeLessThan(slowMedian / 2);
    expect(median(replica(seen.slow, 1))).toBeLessThan(slowMedian / 2);
    expect(median(replica(seen.normal, 1))).toBeLessThan(slowMedian / 2);
  });
});
