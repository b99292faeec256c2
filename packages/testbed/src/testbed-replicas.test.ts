import {
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { resolveLatencyProfile, type LatencyProfileInput } from "@taillab/api";
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
      "invalid latency profile: serviceTime.ms: ms must not be negative",
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

  it("covers the injected delay", async () => {
    const testbed = await start({ profile: { serviceTime: { kind: "fixed", ms: 50 } } });
    const answer = await put(testbed.url);
    expect(answer.serviceMs).toBeGreaterThanOrEqual(49.5);
    expect(answer.serviceMs).toBeLessThan(65);
    expect(answer.latencyMs).toBeGreaterThanOrEqual(answer.serviceMs);
  });
});

describe("latency profiles over HTTP", () => {
  it("steady: GETs take a median of about 5 ms", async () => {
    const testbed = await start({ profile: "steady", seed: 3 });
    await put(testbed.url);
    const answers: Timed[] = [];
    for (let i = 0; i < 200; i++) answers.push(await timedRequest(testbed.url));
    expect(answers.every((answer) => answer.status === 200 && answer.body === "payload")).toBe(
      true,
    );
    const serviceP50 = percentile(
      answers.map((answer) => answer.serviceMs),
      50,
    );
    const latencyP50 = percentile(
      answers.map((answer) => answer.latencyMs),
      50,
    );
    expect(serviceP50).toBeGreaterThan(3.5);
    expect(serviceP50).toBeLessThan(6.5);
    expect(latencyP50).toBeGreaterThan(3.5);
    expect(latencyP50).toBeLessThan(6.5);
  });

  it("stalls: exactly the requests the seed picks stall, the same on every run", async () => {
    const profile: LatencyProfileInput = {
      serviceTime: { kind: "fixed", ms: 2 },
      stalls: { probability: 0.2, durationMs: 300 },
    };
    const seed = 12;
    const random = createRandom(replicaSeed(seed, 0));
    const expected = Array.from({ length: 40 }, () =>
      planRequest(resolveLatencyProfile(profile), random),
    ).map((plan) => plan.kind === "serve" && plan.stallMs > 0);
    expect(expected.filter(Boolean).length).toBeGreaterThan(2);

    for (let run = 0; run < 2; run++) {
      const testbed = await start({ profile, seed });
      // Concurrent GETs: the order in which they arrive varies, so compare the count.
      const answers = await Promise.all(
        expected.map(() => timedRequest(testbed.url, { path: "missing" })),
      );
      expect(answers.every((answer) => answer.status === 404)).toBe(true);
      const stalled = answers.filter((answer) => answer.serviceMs >= 300);
      expect(stalled.length).toBe(expected.filter(Boolean).length);
      expect(Math.max(...answers.map((answer) => answer.latencyMs))).toBeLessThan(450);
      expect(answers.filter((answer) => answer.serviceMs < 50).length).toBe(
        expected.length - stalled.length,
      );
    }
  });

  it("queue: with one slot and 20 ms service, five concurrent requests finish 20 ms apart", async () => {
    const testbed = await start({
      profile: { serviceTime: { kind: "fixed", ms: 20 }, queue: { slots: 1 } },
    });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => timedRequest(testbed.url, { path: "missing" })),
    );
    const times = answers.map((answer) => answer.serviceMs).sort((a, b) => a - b);
    times.forEach((time, index) => {
      expect(time).toBeGreaterThanOrEqual(20 * (index + 1) - 1);
      expect(time).toBeLessThan(20 * (index + 1) + 15);
    });
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
    // Throttling answers at once, without the service time.
    expect(raw.serviceMs).toBeLessThan(20);

    const preflight = await s3.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1 }));
    expect(preflight.KeyCount).toBe(0);
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    expect(testbed.stats().byOperation).toMatchObject({
      GetObject: 6,
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
    const testbed = await start({
      replicas: 2,
      profile: { serviceTime: { kind: "fixed", ms: 400 }, queue: { slots: 1 } },
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

    // The slot is free again: the next request waits only its own 400 ms.
    const next = await timedRequest(url, { path: "missing" });
    expect(next.status).toBe(404);
    expect(next.serviceMs).toBeGreaterThanOrEqual(399);
    expect(next.serviceMs).toBeLessThan(550);
    expect(testbed.replicas[1]?.stats()).toMatchObject({ received: 3, completed: 1, aborted: 2 });
    expect(testbed.replicas[0]?.stats().received).toBe(0);
  });

  it("noisy neighbour: replica 0 is 10× slower half of the time, replica 1 never", async () => {
    const testbed = await start({
      replicas: 2,
      profile: {
        serviceTime: { kind: "fixed", ms: 5 },
        noisyNeighbour: { replica: 0, everyMs: 400, forMs: 200, factor: 10 },
      },
    });
    const sequentially = async (url: string, forMs: number) => {
      const times: number[] = [];
      const deadline = performance.now() + forMs;
      while (performance.now() < deadline) {
        times.push((await timedRequest(url, { path: "missing" })).serviceMs);
      }
      return times;
    };
    const [noisy, quiet] = await Promise.all(testbed.urls.map((url) => sequentially(url, 1_000)));
    // 5 ms or 50 ms, give or take the timers' jitter on a busy machine.
    const slow = (noisy ?? []).filter((time) => time >= 49);
    const fast = (noisy ?? []).filter((time) => time < 45);
    expect(slow.length).toBeGreaterThanOrEqual(5);
    expect(fast.length).toBeGreaterThanOrEqual(20);
    expect(slow.length + fast.length).toBe(noisy?.length);
    expect(percentile(slow, 50)).toBeLessThan(60);
    expect(percentile(fast, 50)).toBeLessThan(8);
    expect(quiet?.length).toBeGreaterThan(50);
    expect(percentile(quiet ?? [], 50)).toBeLessThan(8);
    expect(Math.max(...(quiet ?? []))).toBeLessThan(45);
  });
});
