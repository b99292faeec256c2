import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { Agent, request as httpRequest } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InterceptDecision, InterceptedRequest } from "./index.ts";
import { startTestbed } from "./index.ts";
import { sdkError, startFixture, until, type Fixture } from "./test-support/testbed-fixture.ts";

describe("the request interceptor", () => {
  let fixture: Fixture;
  const bucket = "faults";
  const seen: InterceptedRequest[] = [];
  let decide: (
    request: InterceptedRequest,
  ) => InterceptDecision | Promise<InterceptDecision> = () => undefined;

  beforeAll(async () => {
    fixture = await startFixture("memory", {
      buckets: [bucket],
      interceptor: (request) => {
        seen.push(request);
        return decide(request);
      },
    });
    await fixture.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: "target", Body: "payload" }),
    );
    seen.length = 0;
  });
  afterEach(() => {
    decide = () => undefined;
    seen.length = 0;
  });
  afterAll(() => fixture.stop());

  it("sees each request once, routed", async () => {
    await fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "target" }));
    expect(seen).toEqual([
      {
        method: "GET",
        operation: "GetObject",
        bucket,
        key: "target",
        signal: expect.any(AbortSignal),
        tieId: null,
      },
    ]);
  });

  it("delays a request by delayMs", async () => {
    decide = (request) => (request.operation === "GetObject" ? { delayMs: 300 } : undefined);
    const started = performance.now();
    const got = await fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "target" }));
    expect(await got.Body?.transformToString()).toBe("payload");
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("waits for an asynchronous decision", async () => {
    decide = async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { fault: { status: 500, code: "InternalError", message: "decided later" } };
    };
    const get = fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "target" }));
    expect(await sdkError(get)).toMatchObject({
      name: "InternalError",
      status: 500,
      message: "decided later",
    });
  });

  it("answers an injected fault with S3 XML, after the delay", async () => {
    decide = () => ({
      delayMs: 50,
      fault: { status: 503, code: "SlowDown", message: "Please reduce your request rate." },
    });
    const get = fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "target" }));
    expect(await sdkError(get)).toMatchObject({ name: "SlowDown", status: 503 });
    const raw = await fetch(`${fixture.testbed.url}/${bucket}/target`);
    expect(raw.status).toBe(503);
    const body = await raw.text();
    expect(body).toContain(
      "<Code>SlowDown</Code><Message>Please reduce your request rate.</Message>",
    );
    expect(body).toContain(`<Resource>/${bucket}/target</Resource>`);
  });

  it("answers an injected fault to HEAD without a body", async () => {
    decide = () => ({ fault: { status: 503, code: "SlowDown", message: "slow" } });
    const head = fixture.client.send(new HeadObjectCommand({ Bucket: bucket, Key: "target" }));
    expect(await sdkError(head)).toMatchObject({ status: 503 });
  });

  it("resets the connection when asked to", async () => {
    decide = () => ({ fault: { resetConnection: true } });
    const before = fixture.testbed.stats();
    const get = fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "target" }));
    const error = await sdkError(get);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/ECONNRESET|socket hang up/);
    await until(() => fixture.testbed.stats().resets === before.resets + 1);
    expect(fixture.testbed.stats().aborted).toBe(before.aborted);
  });

  it("turns an interceptor that throws into InternalError (500)", async () => {
    decide = () => {
      throw new Error("profile bug");
    };
    const get = fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "target" }));
    expect(await sdkError(get)).toMatchObject({ name: "InternalError", status: 500 });
  });

  it("counts a request the client abandons as aborted, and stops waiting for it", async () => {
    decide = () => ({ delayMs: 10_000 });
    const before = fixture.testbed.stats();
    const controller = new AbortController();
    const get = fixture.client.send(new GetObjectCommand({ Bucket: bucket, Key: "target" }), {
      abortSignal: controller.signal,
    });
    await until(() => seen.length === 1);
    controller.abort();
    expect(await sdkError(get)).toMatchObject({ name: "AbortError" });
    await until(() => fixture.testbed.stats().aborted === before.aborted + 1);
    expect(seen[0]?.signal.aborted).toBe(true);
    const after = fixture.testbed.stats();
    expect(after.completed).toBe(before.completed);
    expect(after.received).toBe(before.received + 1);
    expect(after.byOperation.GetObject).toBe((before.byOperation.GetObject ?? 0) + 1);
  });
});

describe("the testbed's lifetime", () => {
  // A close that waited for idle connections would wait out the server's 65 s keep-alive
  // timeout: this test's own timeout is well below that, and far above any machine's delay.
  it("closes without waiting for a client's idle keep-alive connections", async () => {
    const testbed = await startTestbed();
    const agent = new Agent({ keepAlive: true });
    for (let i = 0; i < 2; i++) {
      await new Promise<void>((resolve, reject) => {
        httpRequest(`${testbed.url}/`, { agent }, (reply) => {
          reply.resume();
          reply.on("end", resolve);
        })
          .on("error", reject)
          .end();
      });
    }
    // Both requests went over one socket, still open and idle in the pool.
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    await testbed.close();
    expect(testbed.stats()).toMatchObject({ received: 2, completed: 2, aborted: 0 });
    agent.destroy();
  }, 30_000);

  it("refuses to start on a port that is taken, saying which", async () => {
    const first = await startTestbed();
    await expect(startTestbed({ port: first.port })).rejects.toThrow(
      `127.0.0.1:${first.port} (EADDRINUSE)`,
    );
    await first.close();
  });

  it("refuses an invalid bucket name at start", async () => {
    await expect(startTestbed({ buckets: ["Bad_Name"] })).rejects.toThrow(
      '"Bad_Name" is not a valid',
    );
  });
});
