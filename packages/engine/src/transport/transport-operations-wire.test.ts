import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { TransportKind } from "@taillab/api";
import { expectCancelledBytes } from "./test-support/cancelled-bytes.ts";
import { expectOrderedTimeline } from "./test-support/ordered-timeline.ts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { uploadInParts } from "./multipart-upload.ts";
import {
  createTransport,
  type ObjectTransport,
  type RequestOutcome,
  type RequestTimeline,
  type TransportTarget,
} from "./object-transport.ts";

/**
 * The operations beyond PUT / GET / DELETE against a scripted S3 server: one script runs through
 * both transports, which must send the same requests (method, path, query, the headers that carry
 * meaning) and read the same outcomes, including S3's odd answers (200 with an error document,
 * an empty 200 to a copy, per-key DeleteObjects errors).
 */

const BUCKET = "wirebucket";
const clock = () => Math.round(performance.now() * 1000);
const md5Hex = (data: Uint8Array) => createHash("md5").update(data).digest("hex");
/** The one object the scripted server holds: bytes 0…99. */
const OBJECT = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
const LISTED_KEYS = Array.from({ length: 25 }, (_, i) => `list/k${String(i).padStart(2, "0")}`);
const UPLOAD_ID = "up/1+=";
/** A continuation token with characters that must be encoded in a query and escaped in XML. */
const tokenFor = (offset: number) => `t+/=&${offset}`;

interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage["headers"];
}

let server: Server;
let baseUrl: string;
const seen: SeenRequest[] = [];
/** When set, the next requests stall (never answered). */
let stall = false;
/** Called once the server has the next request whole (requestArrives). */
let onArrival: (() => void) | null = null;
const requestArrives = () => new Promise<void>((resolve) => (onArrival = resolve));
const open: ObjectTransport[] = [];

function transport(kind: TransportKind, overrides: Partial<TransportTarget> = {}) {
  const created = createTransport(
    kind,
    {
      url: baseUrl,
      region: "us-east-1",
      addressing: "path",
      credentials: { accessKeyId: "AKIDWIRETEST", secretAccessKey: "wire-secret" },
      bucket: BUCKET,
      maxConnections: 4,
      ...overrides,
    },
    clock,
  );
  open.push(created);
  return created;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://wire");
      const query = Object.fromEntries(
        [...url.searchParams].filter(([name]) => name !== "x-id").sort(),
      );
      seen.push({
        method: request.method ?? "",
        path: url.pathname,
        query,
        headers: request.headers,
      });
      onArrival?.();
      onArrival = null;
      if (!stall) answer(request, response, url.pathname, query, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  stall = false;
  await Promise.all(open.splice(0).map((t) => t.close()));
  seen.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const errorXml = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>m</Message></Error>`;
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** A small S3: enough of each operation to answer the script, and to check what it was sent. */
function answer(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  query: Record<string, string>,
  body: Buffer,
): void {
  const send = (status: number, text = "", headers: Record<string, string> = {}) => {
    const xml = text.startsWith("<") ? { "content-type": "application/xml" } : {};
    response
      .writeHead(status, { "content-length": Buffer.byteLength(text), ...xml, ...headers })
      .end(text);
  };
  const sendBytes = (status: number, bytes: Buffer, headers: Record<string, string> = {}) => {
    response.writeHead(status, { "content-length": bytes.length, ...headers }).end(bytes);
  };
  const method = request.method;
  const copySource = request.headers["x-amz-copy-source"];
  const objectKey = path.startsWith(`/${BUCKET}/`)
    ? decodeURIComponent(path.slice(BUCKET.length + 2))
    : "";

  if (method === "GET" && path === "/") {
    const buckets = ["a", "b", "c"].map((name) => `<Bucket><Name>${name}</Name></Bucket>`);
    return send(
      200,
      `<ListAllMyBucketsResult><Owner><ID>o</ID></Owner><Buckets>${buckets.join("")}</Buckets></ListAllMyBucketsResult>`,
    );
  }
  if (path !== `/${BUCKET}/` && /^\/[^/]+\/$/.test(path)) {
    const bucket = path.slice(1, -1);
    if (method === "PUT")
      return bucket === "taken" ? send(409, errorXml("BucketAlreadyExists")) : send(200);
    if (method === "DELETE")
      return bucket === "full" ? send(409, errorXml("BucketNotEmpty")) : send(204);
  }
  if (path === `/${BUCKET}/` && query["list-type"] === "2") {
    if (query.prefix === "denied/") return send(403, errorXml("AccessDenied"));
    const keys = LISTED_KEYS.filter((key) => key.startsWith(query.prefix ?? ""));
    const token = query["continuation-token"];
    const offset = token === undefined ? 0 : Number(token.slice(tokenFor(0).length - 1));
    const maxKeys = Number(query["max-keys"] ?? 1000);
    const page = keys.slice(offset, offset + maxKeys);
    const truncated = offset + maxKeys < keys.length;
    return send(
      200,
      `<ListBucketResult><Name>${BUCKET}</Name><KeyCount>${page.length}</KeyCount>` +
        `<IsTruncated>${truncated}</IsTruncated>` +
        (truncated
          ? `<NextContinuationToken>${escape(tokenFor(offset + maxKeys))}</NextContinuationToken>`
          : "") +
        page.map((key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`).join("") +
        `</ListBucketResult>`,
    );
  }
  if (path === `/${BUCKET}/` && "delete" in query && method === "POST") {
    const md5 = createHash("md5").update(body).digest("base64");
    if (request.headers["content-md5"] !== md5) return send(400, errorXml("BadDigest"));
    const keys = [...body.toString("utf8").matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!);
    const failed = keys
      .filter((key) => key.startsWith("locked"))
      .map(
        (key) => `<Error><Key>${key}</Key><Code>AccessDenied</Code><Message>m</Message></Error>`,
      );
    return send(200, `<DeleteResult>${failed.join("")}</DeleteResult>`);
  }
  if ("uploads" in query && method === "POST") {
    return send(
      200,
      `<InitiateMultipartUploadResult><Bucket>${BUCKET}</Bucket><Key>${escape(objectKey)}</Key>` +
        `<UploadId>${escape(UPLOAD_ID)}</UploadId></InitiateMultipartUploadResult>`,
    );
  }
  if ("uploadId" in query) {
    if (query.uploadId !== UPLOAD_ID) return send(404, errorXml("NoSuchUpload"));
    if (method === "PUT") {
      if (objectKey === "fail-part" && query.partNumber === "2") {
        return send(500, errorXml("InternalError"));
      }
      return send(200, "", { etag: `"etag-${query.partNumber}-${body.length}"` });
    }
    if (method === "POST") {
      if (objectKey === "complete-fails") return send(200, errorXml("SlowDown"));
      const etags = [...body.toString("utf8").matchAll(/<ETag>([^<]*)<\/ETag>/g)];
      if (etags.some(([, etag]) => !/^&quot;etag-\d+-\d+&quot;$/.test(etag!))) {
        return send(400, errorXml("InvalidPart"));
      }
      return send(
        200,
        `<CompleteMultipartUploadResult><Key>${escape(objectKey)}</Key>` +
          `<ETag>&#34;whole-${etags.length}&#34;</ETag></CompleteMultipartUploadResult>`,
      );
    }
    if (method === "DELETE") return send(204);
  }
  if (method === "PUT" && typeof copySource === "string") {
    switch (copySource) {
      case `/${BUCKET}/object`:
      case `/${BUCKET}/dir%20one/a%2Bb~%C3%A9`:
        return send(200, `<CopyObjectResult><ETag>&quot;e&quot;</ETag></CopyObjectResult>`);
      case `/${BUCKET}/fails-late`:
        return send(200, errorXml("SlowDown"));
      case `/${BUCKET}/cut-short`:
        return send(200);
      default:
        return send(404, errorXml("NoSuchKey"));
    }
  }
  if (method === "HEAD") {
    if (objectKey === "object") return send(200, "", { "content-length": String(OBJECT.length) });
    return send(objectKey === "forbidden" ? 403 : 404);
  }
  if (method === "GET" && (objectKey === "object" || objectKey === "ignores-ranges")) {
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? "");
    if (range === null || objectKey === "ignores-ranges") {
      return sendBytes(200, OBJECT);
    }
    const start = Number(range[1]);
    const end = Math.min(Number(range[2]), OBJECT.length - 1);
    if (start >= OBJECT.length) return send(416, errorXml("InvalidRange"));
    const slice = OBJECT.subarray(start, end + 1);
    return sendBytes(206, slice, { "content-range": `bytes ${start}-${end}/${OBJECT.length}` });
  }
  send(400, errorXml("UnexpectedRequest"));
}

type Outcome = Omit<RequestOutcome, keyof RequestTimeline> & Record<string, unknown>;

/** An outcome without its times, checking they are ordered. */
function timeless(outcome: RequestOutcome): Outcome {
  expectOrderedTimeline(outcome);
  return Object.fromEntries(
    Object.entries(outcome).filter(([name]) => !name.endsWith("Us")),
  ) as Outcome;
}

/** What a request carried that matters to the server. */
function wireView({ method, path, query, headers }: SeenRequest) {
  return {
    method,
    path,
    query,
    range: headers.range ?? null,
    copySource: headers["x-amz-copy-source"] ?? null,
    contentMd5: headers["content-md5"] !== undefined,
    host: headers.host,
    keepAlive: headers.connection !== "close",
  };
}

interface ScriptStep {
  step: string;
  outcome: Outcome;
  requests: ReturnType<typeof wireView>[];
}

async function runWireScript(kind: TransportKind): Promise<ScriptStep[]> {
  const t = transport(kind);
  const steps: ScriptStep[] = [];
  const run = async (step: string, call: () => Promise<RequestOutcome>) => {
    const first = seen.length;
    const outcome = timeless(await call());
    steps.push({ step, outcome, requests: seen.slice(first).map(wireView) });
  };
  const slice = OBJECT.subarray(10, 20);

  await run("HEAD hit", () => t.headObject("object"));
  await run("HEAD miss", () => t.headObject("missing"));
  await run("HEAD forbidden", () => t.headObject("forbidden"));
  await run("GET range", () =>
    t.getObject("object", {
      range: { start: 10, endInclusive: 19 },
      expect: { bytes: 10, md5Hex: md5Hex(slice) },
    }),
  );
  await run("GET range, whole-object expectation", () =>
    t.getObject("object", {
      range: { start: 10, endInclusive: 19 },
      expect: { bytes: 100, md5Hex: md5Hex(OBJECT) },
    }),
  );
  await run("GET range past the end", () =>
    t.getObject("object", { range: { start: 200, endInclusive: 299 } }),
  );
  await run("GET range ignored", () =>
    t.getObject("ignores-ranges", { range: { start: 0, endInclusive: 9 } }),
  );
  await run("COPY", () => t.copyObject("object", "copy"));
  await run("COPY odd key", () => t.copyObject("dir one/a+b~é", "copy"));
  await run("COPY missing", () => t.copyObject("missing", "copy"));
  await run("COPY 200 with error", () => t.copyObject("fails-late", "copy"));
  await run("COPY 200 empty", () => t.copyObject("cut-short", "copy"));
  let token: string | undefined;
  for (let page = 1; page <= 3; page++) {
    await run(`LIST page ${page}`, async () => {
      const outcome = await t.listObjects({
        prefix: "list/",
        maxKeys: 10,
        continuationToken: token,
      });
      token = outcome.nextContinuationToken ?? undefined;
      return outcome;
    });
  }
  await run("LIST denied", () => t.listObjects({ prefix: "denied/" }));
  await run("CREATE upload", () => t.createMultipartUpload("mpu"));
  await run("PART 1", () => t.uploadPart("mpu", UPLOAD_ID, 1, new Uint8Array(7)));
  await run("PART 2", () => t.uploadPart("mpu", UPLOAD_ID, 2, new Uint8Array(3)));
  await run("PART unknown upload", () => t.uploadPart("mpu", "nope", 1, new Uint8Array(3)));
  const parts = [
    { partNumber: 1, etag: '"etag-1-7"' },
    { partNumber: 2, etag: '"etag-2-3"' },
  ];
  await run("COMPLETE", () => t.completeMultipartUpload("mpu", UPLOAD_ID, parts));
  await run("COMPLETE wrong etag", () =>
    t.completeMultipartUpload("mpu", UPLOAD_ID, [{ partNumber: 1, etag: '"other"' }]),
  );
  await run("COMPLETE 200 with error", () =>
    t.completeMultipartUpload("complete-fails", UPLOAD_ID, parts),
  );
  await run("ABORT", () => t.abortMultipartUpload("mpu", UPLOAD_ID));
  await run("ABORT unknown upload", () => t.abortMultipartUpload("mpu", "nope"));
  await run("CREATE bucket", () => t.createBucket("newbucket"));
  await run("CREATE bucket taken", () => t.createBucket("taken"));
  await run("DELETE bucket", () => t.deleteBucket("newbucket"));
  await run("DELETE bucket not empty", () => t.deleteBucket("full"));
  await run("LIST buckets", () => t.listBuckets());
  const keys = Array.from({ length: 50 }, (_, i) => (i % 20 === 7 ? `locked-${i}` : `k&${i}`));
  await run("DELETE objects, some locked", () => t.deleteObjects(keys));
  await run("DELETE objects", () => t.deleteObjects(["a", "b<c>"]));
  return steps;
}

describe("new operations: one script through both transports", () => {
  it("same requests on the wire, same outcomes", async () => {
    const fast = await runWireScript("fast");
    const sdk = await runWireScript("sdk");
    const outcomes = Object.fromEntries(fast.map(({ step, outcome }) => [step, outcome]));
    const host = new URL(baseUrl).host;

    expect(outcomes).toEqual({
      "HEAD hit": { status: 200, error: null, bytes: 0 },
      "HEAD miss": { status: 404, error: "NotFound", bytes: 0 },
      "HEAD forbidden": { status: 403, error: "Forbidden", bytes: 0 },
      "GET range": { status: 206, error: null, bytes: 10 },
      "GET range, whole-object expectation": { status: 206, error: "ContentMismatch", bytes: 10 },
      "GET range past the end": { status: 416, error: "InvalidRange", bytes: 0 },
      "GET range ignored": { status: 200, error: "RangeIgnored", bytes: 100 },
      COPY: { status: 200, error: null, bytes: 0 },
      "COPY odd key": { status: 200, error: null, bytes: 0 },
      "COPY missing": { status: 404, error: "NoSuchKey", bytes: 0 },
      "COPY 200 with error": { status: 200, error: "SlowDown", bytes: 0 },
      "COPY 200 empty": { status: 200, error: "InternalError", bytes: 0 },
      "LIST page 1": {
        status: 200,
        error: null,
        bytes: expect.any(Number),
        keyCount: 10,
        nextContinuationToken: tokenFor(10),
      },
      "LIST page 2": {
        status: 200,
        error: null,
        bytes: expect.any(Number),
        keyCount: 10,
        nextContinuationToken: tokenFor(20),
      },
      "LIST page 3": {
        status: 200,
        error: null,
        bytes: expect.any(Number),
        keyCount: 5,
        nextContinuationToken: null,
      },
      "LIST denied": {
        status: 403,
        error: "AccessDenied",
        bytes: 0,
        keyCount: 0,
        nextContinuationToken: null,
      },
      "CREATE upload": { status: 200, error: null, bytes: 0, uploadId: UPLOAD_ID },
      "PART 1": { status: 200, error: null, bytes: 7, etag: '"etag-1-7"' },
      "PART 2": { status: 200, error: null, bytes: 3, etag: '"etag-2-3"' },
      "PART unknown upload": { status: 404, error: "NoSuchUpload", bytes: 0, etag: null },
      COMPLETE: { status: 200, error: null, bytes: 0, etag: '"whole-2"' },
      "COMPLETE wrong etag": { status: 400, error: "InvalidPart", bytes: 0, etag: null },
      "COMPLETE 200 with error": { status: 200, error: "SlowDown", bytes: 0, etag: null },
      ABORT: { status: 204, error: null, bytes: 0 },
      "ABORT unknown upload": { status: 404, error: "NoSuchUpload", bytes: 0 },
      "CREATE bucket": { status: 200, error: null, bytes: 0 },
      "CREATE bucket taken": { status: 409, error: "BucketAlreadyExists", bytes: 0 },
      "DELETE bucket": { status: 204, error: null, bytes: 0 },
      "DELETE bucket not empty": { status: 409, error: "BucketNotEmpty", bytes: 0 },
      "LIST buckets": { status: 200, error: null, bytes: expect.any(Number), bucketCount: 3 },
      "DELETE objects, some locked": {
        status: 200,
        error: "PartialFailure:AccessDenied",
        bytes: 0,
        keyErrors: [7, 27, 47].map((i) => ({ key: `locked-${i}`, code: "AccessDenied" })),
      },
      "DELETE objects": { status: 200, error: null, bytes: 0, keyErrors: [] },
    });
    expect(outcomes["LIST page 1"]!.bytes).toBeGreaterThan(300);

    const requests = Object.fromEntries(fast.map(({ step, requests }) => [step, requests]));
    const only = (step: string) => {
      expect(requests[step]).toHaveLength(1);
      return requests[step]![0]!;
    };
    expect(only("HEAD hit")).toMatchObject({
      method: "HEAD",
      path: "/wirebucket/object",
      keepAlive: true,
    });
    expect(only("GET range")).toMatchObject({ method: "GET", range: "bytes=10-19" });
    expect(only("COPY odd key")).toMatchObject({
      method: "PUT",
      path: "/wirebucket/copy",
      copySource: "/wirebucket/dir%20one/a%2Bb~%C3%A9",
    });
    expect(only("LIST page 2").query).toEqual({
      "continuation-token": tokenFor(10),
      "list-type": "2",
      "max-keys": "10",
      prefix: "list/",
    });
    expect(only("CREATE upload")).toMatchObject({ method: "POST", query: { uploads: "" } });
    expect(only("PART 2")).toMatchObject({
      method: "PUT",
      query: { partNumber: "2", uploadId: UPLOAD_ID },
    });
    expect(only("CREATE bucket")).toMatchObject({ method: "PUT", path: "/newbucket/", host });
    expect(only("LIST buckets")).toMatchObject({ method: "GET", path: "/", query: {}, host });
    expect(only("DELETE objects")).toMatchObject({
      method: "POST",
      path: "/wirebucket/",
      query: { delete: "" },
      contentMd5: true,
    });

    expect(sdk).toEqual(fast);
  });
});

describe.each<TransportKind>(["fast", "sdk"])("%s transport: new operations", (kind) => {
  it("onResponse is called once, with the status as sent, for each", async () => {
    const t = transport(kind);
    const statuses: number[] = [];
    const options = { onResponse: (status: number) => statuses.push(status) };
    await t.headObject("missing", options);
    await t.copyObject("fails-late", "copy", options);
    await t.listObjects({ prefix: "list/" }, options);
    await t.deleteObjects(["a"], options);
    await t.listBuckets(options);
    expect(statuses).toEqual([404, 200, 200, 200, 200]);
  });

  // The stalled server never answers: only the abort can end the request.
  it("abort while waiting → Aborted, at the abort; an aborted signal sends nothing", async () => {
    const t = transport(kind);
    stall = true;
    const controller = new AbortController();
    // Aborted once the server has the request, not after a fixed wait: a loaded machine may not
    // have sent it by then, and a request aborted before it went out moved nothing.
    const arrived = requestArrives();
    const listing = t.listObjects({ prefix: "list/" }, { signal: controller.signal });
    await arrived;
    const abortedUs = clock();
    controller.abort();
    const outcome = await listing;
    expect(timeless(outcome)).toEqual({
      status: 0,
      error: "Aborted",
      bytes: outcome.bytes,
      keyCount: 0,
      nextContinuationToken: null,
    });
    expectCancelledBytes(outcome.bytes, 0);
    expect(outcome.endUs).toBeGreaterThanOrEqual(abortedUs);
    seen.length = 0;
    const none = await t.deleteObjects(["a"], { signal: AbortSignal.abort() });
    expect(timeless(none)).toEqual({ status: 0, error: "Aborted", bytes: 0, keyErrors: [] });
    expect(seen).toEqual([]);
  });

  it("bad arguments are programmer errors: they throw", async () => {
    const t = transport(kind);
    await expect(t.headObject("")).rejects.toThrow(/empty/);
    await expect(t.getObject("k", { range: { start: 5, endInclusive: 4 } })).rejects.toThrow(
      /ends before it starts/,
    );
    await expect(t.uploadPart("k", UPLOAD_ID, 0, new Uint8Array(1))).rejects.toThrow(/part number/);
    await expect(t.deleteObjects([])).rejects.toThrow(/1…1000 keys/);
    await expect(t.createBucket("a/b")).rejects.toThrow(/invalid bucket name/);
  });

  it("uploadInParts: parts in flight, then Complete", async () => {
    const body = new Uint8Array(25);
    const result = await uploadInParts(transport(kind), "mpu", body, 10, 2);
    expect(timeless(result.outcome)).toEqual({
      status: 200,
      error: null,
      bytes: 25,
      etag: '"whole-3"',
    });
    expect(result.parts.map((part) => part.etag)).toEqual([
      '"etag-1-10"',
      '"etag-2-10"',
      '"etag-3-5"',
    ]);
    expect(result.abort).toBeNull();
    expect(result.outcome.readyUs).toBe(result.create.readyUs);
    expect(result.outcome.sentUs).toBe(result.create.sentUs);
    expect(result.outcome.endUs).toBe(result.complete?.endUs);
  });

  it("uploadInParts: a failed part stops the upload and aborts it", async () => {
    const result = await uploadInParts(transport(kind), "fail-part", new Uint8Array(40), 10, 1);
    expect(timeless(result.outcome)).toEqual({
      status: 500,
      error: "InternalError",
      bytes: 0,
      etag: null,
    });
    expect(result.parts.map((part) => part.error)).toEqual([null, "InternalError"]);
    expect(result.complete).toBeNull();
    expect(result.abort).toMatchObject({ status: 204, error: null });
    expect(seen.map(({ method, query }) => `${method} ${Object.keys(query).join(",")}`)).toEqual([
      "POST uploads",
      "PUT partNumber,uploadId",
      "PUT partNumber,uploadId",
      "DELETE uploadId",
    ]);
  });
});

describe("fast transport: bucket calls with virtual-host addressing", () => {
  it("name the bucket in the Host header; ListBuckets goes to the endpoint's host", async () => {
    const t = transport("fast", { addressing: "virtual-host" });
    await t.createBucket("newbucket");
    await t.listBuckets();
    const host = new URL(baseUrl).host;
    expect(seen.map(({ method, path, headers }) => [method, path, headers.host])).toEqual([
      ["PUT", "/", `newbucket.${host}`],
      ["GET", "/", host],
    ]);
  });
});
