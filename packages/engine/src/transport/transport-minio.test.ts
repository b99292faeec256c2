import { createHash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { freePort, startMinio, type MinioServer } from "@taillab/test-support";
import type { TransportKind } from "@taillab/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlPlane, type ControlPlane } from "./control-plane.ts";
import { EndpointError } from "./endpoint-error.ts";
import {
  createTransport,
  type ObjectTransport,
  type RequestOutcome,
  type TransportTarget,
} from "./object-transport.ts";

/** Both data paths and the control plane against a real S3 server (MinIO). */

const BUCKET = "transport-test";
const clock = () => Math.round(performance.now() * 1000);

let minio: MinioServer;
let target: TransportTarget;
let controlPlane: ControlPlane;

beforeAll(async () => {
  // MINIO_DOMAIN=localhost: MinIO also accepts virtual-host requests (Host: bucket.localhost).
  minio = await startMinio({ domain: "localhost" });
  target = {
    url: minio.url,
    region: "us-east-1",
    addressing: "path",
    credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey },
    bucket: BUCKET,
    maxConnections: 16,
  };
  controlPlane = createControlPlane(target);
  await controlPlane.createBucket();
});

afterAll(async () => {
  await controlPlane?.close();
  await minio?.stop();
});

const md5Hex = (data: Uint8Array) => createHash("md5").update(data).digest("hex");

async function withTransport<T>(
  kind: TransportKind,
  run: (transport: ObjectTransport) => Promise<T>,
): Promise<T> {
  const transport = createTransport(kind, target, clock);
  try {
    return await run(transport);
  } finally {
    await transport.close();
  }
}

/** Runs `count` calls with up to `inFlight` at once, results in call order. */
async function inParallel<T>(count: number, inFlight: number, call: (i: number) => Promise<T>) {
  const results: T[] = new Array(count);
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await call(i);
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  return results;
}

type Step = { step: string } & Omit<RequestOutcome, "startUs" | "firstByteUs" | "endUs">;

/** One script of operations; returns every outcome, labelled, without its times. */
async function runScript(kind: TransportKind, prefix: string): Promise<Step[]> {
  const objects = Array.from({ length: 50 }, (_, i) => ({
    key: `${prefix}/obj-${String(i).padStart(2, "0")}`,
    body: randomBytes(4096),
  }));
  const oddKey = `${prefix}/dir one/a+b~é(1)!*'.txt`;
  const steps: Step[] = [];
  const record = (step: string, outcome: RequestOutcome) => {
    expect(outcome.startUs).toBeLessThanOrEqual(outcome.firstByteUs);
    expect(outcome.firstByteUs).toBeLessThanOrEqual(outcome.endUs);
    const { status, error, bytes } = outcome;
    steps.push({ step, status, error, bytes });
  };
  await withTransport(kind, async (transport) => {
    const puts = await inParallel(objects.length, 16, (i) =>
      transport.putObject(objects[i]!.key, objects[i]!.body),
    );
    puts.forEach((outcome, i) => record(`PUT ${i}`, outcome));
    const gets = await inParallel(objects.length, 16, (i) =>
      transport.getObject(objects[i]!.key, {
        expect: { bytes: 4096, md5Hex: md5Hex(objects[i]!.body) },
      }),
    );
    gets.forEach((outcome, i) => record(`GET ${i}`, outcome));
    record(
      "GET wrong md5",
      await transport.getObject(objects[0]!.key, {
        expect: { bytes: 4096, md5Hex: md5Hex(objects[1]!.body) },
      }),
    );
    record(
      "GET wrong size",
      await transport.getObject(objects[0]!.key, {
        expect: { bytes: 4097, md5Hex: md5Hex(objects[0]!.body) },
      }),
    );
    record("GET missing", await transport.getObject(`${prefix}/missing`));
    for (let i = 0; i < 10; i++)
      record(`DELETE ${i}`, await transport.deleteObject(objects[i]!.key));
    record("DELETE missing", await transport.deleteObject(`${prefix}/missing`));
    record("GET deleted", await transport.getObject(objects[0]!.key));
    const odd = Buffer.from("odd key");
    record("PUT odd key", await transport.putObject(oddKey, odd));
    record(
      "GET odd key",
      await transport.getObject(oddKey, { expect: { bytes: odd.length, md5Hex: md5Hex(odd) } }),
    );
  });
  const remaining = [...objects.slice(10).map((object) => object.key), oddKey].sort();
  expect(await controlPlane.listKeys(`${prefix}/`)).toEqual(remaining);
  return steps;
}

describe("object transports against MinIO", () => {
  it("fast and sdk give identical statuses, error codes and byte counts for one script", async () => {
    const fast = await runScript("fast", "script-fast");
    const sdk = await runScript("sdk", "script-sdk");

    const byStep = new Map(fast.map(({ step, ...rest }) => [step, rest]));
    for (let i = 0; i < 50; i++) {
      expect(byStep.get(`PUT ${i}`)).toEqual({ status: 200, error: null, bytes: 4096 });
      expect(byStep.get(`GET ${i}`)).toEqual({ status: 200, error: null, bytes: 4096 });
    }
    expect(byStep.get("GET wrong md5")).toEqual({
      status: 200,
      error: "ContentMismatch",
      bytes: 4096,
    });
    expect(byStep.get("GET wrong size")).toEqual({
      status: 200,
      error: "ContentMismatch",
      bytes: 4096,
    });
    expect(byStep.get("GET missing")).toEqual({ status: 404, error: "NoSuchKey", bytes: 0 });
    expect(byStep.get("DELETE 0")).toEqual({ status: 204, error: null, bytes: 0 });
    expect(byStep.get("DELETE missing")).toEqual({ status: 204, error: null, bytes: 0 });
    expect(byStep.get("GET deleted")).toEqual({ status: 404, error: "NoSuchKey", bytes: 0 });
    expect(byStep.get("GET odd key")).toEqual({ status: 200, error: null, bytes: 7 });

    expect(sdk).toEqual(fast);
  });

  it("fast: virtual-host addressing puts and gets through Host: bucket.localhost", async () => {
    const virtualTarget: TransportTarget = {
      ...target,
      url: `http://localhost:${new URL(minio.url).port}`,
      addressing: "virtual-host",
    };
    const transport = createTransport("fast", virtualTarget, clock);
    const body = randomBytes(1000);
    // Were the bucket not taken from the Host header, "virtual" would be read as the bucket.
    const put = await transport.putObject("virtual/key one", body);
    const get = await transport.getObject("virtual/key one", {
      expect: { bytes: 1000, md5Hex: md5Hex(body) },
    });
    await transport.close();
    expect(put).toMatchObject({ status: 200, error: null, bytes: 1000 });
    expect(get).toMatchObject({ status: 200, error: null, bytes: 1000 });
    expect(await controlPlane.listKeys("virtual/")).toEqual(["virtual/key one"]);
  });

  it.each<TransportKind>(["fast", "sdk"])("%s: a wrong secret key is a 403", async (kind) => {
    const transport = createTransport(
      kind,
      { ...target, credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: "wrong" } },
      clock,
    );
    const outcome = await transport.getObject("anything");
    await transport.close();
    expect(outcome).toMatchObject({ status: 403, error: "SignatureDoesNotMatch", bytes: 0 });
  });
});

describe("control plane against MinIO", () => {
  async function preflightError(overrides: Partial<TransportTarget>): Promise<EndpointError> {
    const plane = createControlPlane({ ...target, ...overrides });
    try {
      await plane.checkAccess();
    } catch (error) {
      if (error instanceof EndpointError) return error;
      throw error;
    } finally {
      await plane.close();
    }
    throw new Error("checkAccess passed");
  }

  it("checkAccess passes for the right endpoint, credentials and bucket", async () => {
    await expect(controlPlane.checkAccess()).resolves.toBeUndefined();
  });

  it("a wrong secret key → field credentials", async () => {
    const error = await preflightError({
      credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: "not-the-secret" },
    });
    expect(error.field).toBe("credentials");
    expect(error.code).toBe("SignatureDoesNotMatch");
    expect(error.message).toBe(
      `endpoint ${minio.url}: access key "${minio.accessKeyId}" was rejected (SignatureDoesNotMatch)`,
    );
  });

  it("an unknown access key → field credentials", async () => {
    const error = await preflightError({
      credentials: { accessKeyId: "AKIDUNKNOWN", secretAccessKey: "x" },
    });
    expect(error.field).toBe("credentials");
    expect(error.message).toBe(
      `endpoint ${minio.url}: access key "AKIDUNKNOWN" was rejected (InvalidAccessKeyId)`,
    );
  });

  it("anonymous access to a private bucket → field credentials", async () => {
    const error = await preflightError({ credentials: null });
    expect(error.field).toBe("credentials");
    expect(error.message).toBe(
      `endpoint ${minio.url}: anonymous access was rejected (AccessDenied)`,
    );
  });

  it("a missing bucket → field bucket", async () => {
    const error = await preflightError({ bucket: "no-such-bucket" });
    expect(error.field).toBe("bucket");
    expect(error.message).toBe(
      `endpoint ${minio.url}: bucket "no-such-bucket" does not exist (NoSuchBucket); create it or pass --create-bucket`,
    );
  });

  it("a closed port → field endpoint", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const error = await preflightError({ url });
    expect(error.field).toBe("endpoint");
    expect(error.message).toBe(`endpoint ${url}: cannot connect (ECONNREFUSED)`);
  });

  it("createBucket is idempotent for our own bucket", async () => {
    await expect(controlPlane.createBucket()).resolves.toBeUndefined();
  });

  it("serverHeader reports the server", async () => {
    expect(await controlPlane.serverHeader()).toBe("MinIO");
  });

  it("deleteKeys works in batches of 1000 and listKeys pages", async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `bulk/${String(i).padStart(4, "0")}`);
    await withTransport("fast", (transport) =>
      inParallel(keys.length, 16, async (i) => {
        const outcome = await transport.putObject(keys[i]!, new Uint8Array(0));
        expect(outcome.error).toBeNull();
      }),
    );
    expect(await controlPlane.listKeys("bulk/")).toEqual(keys);

    const result = await controlPlane.deleteKeys(keys);
    expect(result).toEqual({ deleted: 1005, errors: [] });
    expect(await controlPlane.listKeys("bulk/")).toEqual([]);
  });
});
