import { ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import { createHash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { freePort, startMinio, type MinioServer } from "@taillab/test-support";
import type { TransportKind } from "@taillab/api";
import { expectOrderedTimeline } from "./test-support/ordered-timeline.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlPlane, type ControlPlane } from "./control-plane.ts";
import { EndpointError } from "./endpoint-error.ts";
import { uploadInParts } from "./multipart-upload.ts";
import {
  createTransport,
  type ObjectTransport,
  type RequestOutcome,
  type RequestTimeline,
  type TransportTarget,
} from "./object-transport.ts";
import { createTargetS3Client } from "./s3-client.ts";

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

type Step = { step: string } & Omit<RequestOutcome, keyof RequestTimeline>;

/** One script of operations; returns every outcome, labelled, without its times. */
async function runScript(kind: TransportKind, prefix: string): Promise<Step[]> {
  const objects = Array.from({ length: 50 }, (_, i) => ({
    key: `${prefix}/obj-${String(i).padStart(2, "0")}`,
    body: randomBytes(4096),
  }));
  const oddKey = `${prefix}/dir one/a+b~é(1)!*'.txt`;
  const steps: Step[] = [];
  const record = (step: string, outcome: RequestOutcome) => {
    expectOrderedTimeline(outcome);
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

type OperationStep = { step: string } & Omit<RequestOutcome, keyof RequestTimeline> &
  Record<string, unknown>;

const MiB = 1024 * 1024;
/** Shared by both runs, so ETags (MD5-based) come out the same on both paths. */
const SOURCE_BODY = randomBytes(MiB);
const MULTIPART_BODY = randomBytes(12 * MiB);

/**
 * The operations beyond PUT / GET / DELETE. Prefixes and bucket names have the same length on
 * both runs, so listings (whose bytes are counted) have the same size.
 */
async function runOperationsScript(kind: TransportKind): Promise<OperationStep[]> {
  const prefix = `ops-${kind.padEnd(4, "-")}`;
  const steps: OperationStep[] = [];
  const record = (step: string, outcome: RequestOutcome, fields: Record<string, unknown> = {}) => {
    expectOrderedTimeline(outcome);
    const { status, error, bytes } = outcome;
    steps.push({ step, status, error, bytes, ...fields });
  };
  await withTransport(kind, async (transport) => {
    const source = `${prefix}/source`;
    record("PUT source", await transport.putObject(source, SOURCE_BODY));
    record("HEAD hit", await transport.headObject(source));
    record("HEAD miss", await transport.headObject(`${prefix}/missing`));
    const slice = SOURCE_BODY.subarray(300_000, 700_000);
    record(
      "GET middle slice",
      await transport.getObject(source, {
        range: { start: 300_000, endInclusive: 699_999 },
        expect: { bytes: slice.length, md5Hex: md5Hex(slice) },
      }),
    );
    record("COPY", await transport.copyObject(source, `${prefix}/copy`));
    record(
      "GET copy",
      await transport.getObject(`${prefix}/copy`, {
        expect: { bytes: SOURCE_BODY.length, md5Hex: md5Hex(SOURCE_BODY) },
      }),
    );
    record("COPY missing", await transport.copyObject(`${prefix}/missing`, `${prefix}/copy2`));

    const listed = Array.from(
      { length: 25 },
      (_, i) => `${prefix}/list/${String(i).padStart(2, "0")}`,
    );
    await inParallel(listed.length, 8, (i) => transport.putObject(listed[i]!, new Uint8Array(16)));
    let continuationToken: string | undefined;
    for (let page = 1; page <= 3; page++) {
      const outcome = await transport.listObjects({
        prefix: `${prefix}/list/`,
        maxKeys: 10,
        ...(continuationToken === undefined ? {} : { continuationToken }),
      });
      continuationToken = outcome.nextContinuationToken ?? undefined;
      record(`LIST page ${page}`, outcome, {
        keyCount: outcome.keyCount,
        more: outcome.nextContinuationToken !== null,
      });
    }

    const batch = Array.from(
      { length: 50 },
      (_, i) => `${prefix}/batch/${String(i).padStart(2, "0")}`,
    );
    await inParallel(batch.length, 8, (i) => transport.putObject(batch[i]!, new Uint8Array(8)));
    const deleted = await transport.deleteObjects(batch);
    record("DELETE 50 objects", deleted, { keyErrors: deleted.keyErrors });
    const afterDelete = await transport.listObjects({ prefix: `${prefix}/batch/` });
    record("LIST after delete", afterDelete, { keyCount: afterDelete.keyCount });

    const multipart = `${prefix}/multipart`;
    const upload = await uploadInParts(transport, multipart, MULTIPART_BODY, 5 * MiB, 2);
    record("CREATE upload", upload.create, { uploadId: upload.create.uploadId !== null });
    upload.parts.forEach((part, i) => record(`PART ${i + 1}`, part, { etag: part.etag }));
    record("COMPLETE", upload.complete!, { etag: upload.complete!.etag });
    record("upload in parts", upload.outcome, { etag: upload.outcome.etag });
    record(
      "GET multipart object",
      await transport.getObject(multipart, {
        expect: { bytes: MULTIPART_BODY.length, md5Hex: md5Hex(MULTIPART_BODY) },
      }),
    );

    const aborted = `${prefix}/aborted`;
    const created = await transport.createMultipartUpload(aborted);
    const uploadId = created.uploadId!;
    record(
      "PART before abort",
      await transport.uploadPart(aborted, uploadId, 1, new Uint8Array(MiB)),
    );
    record("ABORT", await transport.abortMultipartUpload(aborted, uploadId));
    record("PART after abort", await transport.uploadPart(aborted, uploadId, 2, new Uint8Array(1)));
    const afterAbort = await transport.listObjects({ prefix: aborted });
    record("LIST after abort", afterAbort, { keyCount: afterAbort.keyCount });

    const bucket = `${prefix}-bucket`;
    record("CREATE bucket", await transport.createBucket(bucket));
    record("CREATE bucket again", await transport.createBucket(bucket));
    const buckets = await transport.listBuckets();
    record("LIST buckets", buckets, { bucketCount: buckets.bucketCount });
    record("DELETE bucket", await transport.deleteBucket(bucket));
    record("DELETE bucket again", await transport.deleteBucket(bucket));
  });
  return steps;
}

/** Multipart uploads in progress under a prefix, asked of the server directly. */
async function uploadsInProgress(prefix: string): Promise<number> {
  const { client, handler } = createTargetS3Client(target);
  try {
    const output = await client.send(
      new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: prefix }),
    );
    return output.Uploads?.length ?? 0;
  } finally {
    await handler.close();
    client.destroy();
  }
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

  it("fast and sdk give identical outcomes for HEAD, ranges, copy, list, multipart, buckets", async () => {
    const fast = await runOperationsScript("fast");
    const sdk = await runOperationsScript("sdk");
    const byStep = Object.fromEntries(fast.map(({ step, ...rest }) => [step, rest]));
    const listBytes = byStep["LIST page 1"]!.bytes;

    expect(byStep).toEqual({
      "PUT source": { status: 200, error: null, bytes: MiB },
      "HEAD hit": { status: 200, error: null, bytes: 0 },
      "HEAD miss": { status: 404, error: "NotFound", bytes: 0 },
      "GET middle slice": { status: 206, error: null, bytes: 400_000 },
      COPY: { status: 200, error: null, bytes: 0 },
      "GET copy": { status: 200, error: null, bytes: MiB },
      "COPY missing": { status: 404, error: "NoSuchKey", bytes: 0 },
      "LIST page 1": { status: 200, error: null, bytes: listBytes, keyCount: 10, more: true },
      "LIST page 2": {
        status: 200,
        error: null,
        bytes: expect.any(Number),
        keyCount: 10,
        more: true,
      },
      "LIST page 3": {
        status: 200,
        error: null,
        bytes: expect.any(Number),
        keyCount: 5,
        more: false,
      },
      "DELETE 50 objects": { status: 200, error: null, bytes: 0, keyErrors: [] },
      "LIST after delete": { status: 200, error: null, bytes: expect.any(Number), keyCount: 0 },
      "CREATE upload": { status: 200, error: null, bytes: 0, uploadId: true },
      "PART 1": { status: 200, error: null, bytes: 5 * MiB, etag: expect.any(String) },
      "PART 2": { status: 200, error: null, bytes: 5 * MiB, etag: expect.any(String) },
      "PART 3": { status: 200, error: null, bytes: 2 * MiB, etag: expect.any(String) },
      COMPLETE: {
        status: 200,
        error: null,
        bytes: 0,
        etag: expect.stringMatching(/^"[0-9a-f]{32}-3"$/),
      },
      "upload in parts": { status: 200, error: null, bytes: 12 * MiB, etag: byStep.COMPLETE?.etag },
      "GET multipart object": { status: 200, error: null, bytes: 12 * MiB },
      "PART before abort": { status: 200, error: null, bytes: MiB },
      ABORT: { status: 204, error: null, bytes: 0 },
      "PART after abort": { status: 404, error: "NoSuchUpload", bytes: 0 },
      "LIST after abort": { status: 200, error: null, bytes: expect.any(Number), keyCount: 0 },
      "CREATE bucket": { status: 200, error: null, bytes: 0 },
      "CREATE bucket again": { status: 409, error: "BucketAlreadyOwnedByYou", bytes: 0 },
      "LIST buckets": { status: 200, error: null, bytes: expect.any(Number), bucketCount: 2 },
      "DELETE bucket": { status: 204, error: null, bytes: 0 },
      "DELETE bucket again": { status: 404, error: "NoSuchBucket", bytes: 0 },
    });
    expect(listBytes).toBeGreaterThan(1000);
    expect(await uploadsInProgress("ops-")).toBe(0);

    expect(sdk).toEqual(fast);
  });

  it.each<TransportKind>(["fast", "sdk"])(
    "%s: virtual-host addressing puts and gets through Host: bucket.localhost, with no DNS name for it",
    async (kind) => {
      // bucket.localhost does not resolve here: every path must connect to localhost itself.
      const virtualTarget: TransportTarget = {
        ...target,
        url: `http://localhost:${new URL(minio.url).port}`,
        addressing: "virtual-host",
      };
      const transport = createTransport(kind, virtualTarget, clock);
      const body = randomBytes(1000);
      // Were the bucket not taken from the Host header, "virtual" would be read as the bucket.
      const put = await transport.putObject(`virtual-${kind}/key one`, body);
      const get = await transport.getObject(`virtual-${kind}/key one`, {
        expect: { bytes: 1000, md5Hex: md5Hex(body) },
      });
      await transport.close();
      expect(put).toMatchObject({ status: 200, error: null, bytes: 1000 });
      expect(get).toMatchObject({ status: 200, error: null, bytes: 1000 });
      expect(await controlPlane.listKeys(`virtual-${kind}/`)).toEqual([`virtual-${kind}/key one`]);
    },
  );

  it("the control plane uses virtual-host addressing as asked, with no DNS name for bucket.localhost", async () => {
    const virtual = createControlPlane({
      ...target,
      url: `http://localhost:${new URL(minio.url).port}`,
      addressing: "virtual-host",
    });
    try {
      await virtual.checkAccess();
      expect(await virtual.serverHeader()).toBe("MinIO");
      expect(await virtual.listKeys("virtual-none/")).toEqual([]);
    } finally {
      await virtual.close();
    }
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
      `endpoint ${minio.url}: the access key was rejected (SignatureDoesNotMatch)`,
    );
  });

  it("an unknown access key → field credentials", async () => {
    const error = await preflightError({
      credentials: { accessKeyId: "AKIDUNKNOWN", secretAccessKey: "x" },
    });
    expect(error.field).toBe("credentials");
    expect(error.message).toBe(
      `endpoint ${minio.url}: the access key was rejected (InvalidAccessKeyId)`,
    );
    expect(error.message).not.toContain("AKIDUNKNOWN");
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
    expect(error.unanswered).toBe(true);
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
    expect(result).toEqual({ removed: 1005, failures: [], unanswered: false });
    expect(await controlPlane.listKeys("bulk/")).toEqual([]);
  });
});
