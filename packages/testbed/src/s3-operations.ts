/** What each S3 operation does to the store and what it answers, as a plain response. */
import { hash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { isValidBucketName } from "./bucket-name.ts";
import { headerText } from "./http-headers.ts";
import { listPage } from "./list-objects.ts";
import type { ObjectMetadata, ObjectStore } from "./object-store.ts";
import { parseRange } from "./range.ts";
import { noSuchBucket, S3Error } from "./s3-error.ts";
import type { RequestTarget, S3Operation } from "./s3-route.ts";
import {
  bucketLocationXml,
  deleteResultXml,
  listBucketsXml,
  listObjectsV1Xml,
  listObjectsV2Xml,
  parseDeleteRequest,
  XML_CONTENT_TYPE,
  type DeleteFailure,
  type ListObjectsXmlInput,
} from "./s3-xml.ts";

const DEFAULT_CONTENT_TYPE = "binary/octet-stream";
const MAX_KEYS = 1000;
const MAX_KEY_BYTES = 1024;
const DIGITS = /^\d+$/;

export interface S3Response {
  status: number;
  headers: Record<string, string | number>;
  /** Absent for empty bodies and for HEAD, whose headers describe a body that is not sent. */
  body?: Buffer | string;
}

export interface OperationRequest {
  target: RequestTarget;
  headers: IncomingHttpHeaders;
  /** The whole body, with its signed SHA-256 checked. */
  readBody(): Promise<Buffer>;
}

export interface OperationContext {
  store: ObjectStore;
  region: string;
}

type Operation = (request: OperationRequest, context: OperationContext) => Promise<S3Response>;

function xml(body: string): S3Response {
  return { status: 200, headers: { "Content-Type": XML_CONTENT_TYPE }, body };
}

// resolveOperation routes to a bucket operation only when the request names a bucket, and to an
// object operation only when it also names a key.
function bucketOf(request: OperationRequest): string {
  return request.target.bucket as string;
}

function keyOf(request: OperationRequest): string {
  return request.target.key as string;
}

function checkKeyLength(key: string): void {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) {
    throw new S3Error(
      "KeyTooLongError",
      `Your key is too long: the limit is ${MAX_KEY_BYTES} bytes of UTF-8`,
    );
  }
}

/** Checks Content-MD5 when the client sent one; returns the body's MD5. */
function md5Of(body: Buffer, headers: IncomingHttpHeaders): Buffer {
  const digest = hash("md5", body, "buffer");
  const contentMd5 = headerText(headers, "content-md5");
  if (contentMd5 !== undefined && contentMd5 !== digest.toString("base64")) {
    if (Buffer.from(contentMd5, "base64").length !== digest.length) {
      throw new S3Error("InvalidDigest", "The Content-MD5 you specified is not a base64 MD5");
    }
    throw new S3Error("BadDigest", "The Content-MD5 you specified did not match what we received");
  }
  return digest;
}

function objectHeaders(metadata: ObjectMetadata): Record<string, string | number> {
  return {
    "Content-Type": metadata.contentType,
    "Content-Length": metadata.sizeBytes,
    ETag: metadata.etag,
    "Last-Modified": metadata.lastModified.toUTCString(),
    "Accept-Ranges": "bytes",
  };
}

function noSuchKey(request: OperationRequest): S3Error {
  return new S3Error("NoSuchKey", `The specified key does not exist: ${keyOf(request)}`);
}

/** GET and HEAD share range handling; only GET reads the body. */
async function readObject(
  request: OperationRequest,
  store: ObjectStore,
  withBody: boolean,
): Promise<S3Response> {
  const bucket = bucketOf(request);
  const key = keyOf(request);
  let object: ObjectMetadata | undefined;
  let body: Buffer | undefined;
  if (withBody) {
    const stored = await store.getObject(bucket, key);
    object = stored;
    body = stored?.body;
  } else {
    object = await store.headObject(bucket, key);
  }
  if (object === undefined) throw noSuchKey(request);
  const headers = objectHeaders(object);
  const range = parseRange(headerText(request.headers, "range"), object.sizeBytes);
  if (range.kind === "unsatisfiable") {
    throw new S3Error(
      "InvalidRange",
      `The requested range is not satisfiable for ${object.sizeBytes} bytes`,
      {
        "Content-Range": `bytes */${object.sizeBytes}`,
      },
    );
  }
  if (range.kind === "whole") return { status: 200, headers, body };
  headers["Content-Length"] = range.end - range.start + 1;
  headers["Content-Range"] = `bytes ${range.start}-${range.end}/${object.sizeBytes}`;
  return { status: 206, headers, body: body?.subarray(range.start, range.end + 1) };
}

function parseMaxKeys(query: URLSearchParams): number {
  const text = query.get("max-keys");
  if (text === null) return MAX_KEYS;
  if (!DIGITS.test(text)) {
    throw new S3Error("InvalidArgument", `max-keys must be a whole number from 0, not "${text}"`);
  }
  return Math.min(Number(text), MAX_KEYS);
}

function parseUrlEncoding(query: URLSearchParams): boolean {
  const encoding = query.get("encoding-type");
  if (encoding !== null && encoding !== "url") {
    throw new S3Error("InvalidArgument", `encoding-type must be "url", not "${encoding}"`);
  }
  return encoding === "url";
}

/** Continuation tokens are opaque to clients; ours are the last entry of the page, base64url. */
function decodeContinuationToken(token: string): string {
  const after = Buffer.from(token, "base64url").toString("utf8");
  if (Buffer.from(after, "utf8").toString("base64url") !== token) {
    throw new S3Error("InvalidArgument", "The continuation token provided is incorrect");
  }
  return after;
}

async function listing(
  request: OperationRequest,
  store: ObjectStore,
  after: string,
): Promise<ListObjectsXmlInput> {
  const bucket = bucketOf(request);
  const { query } = request.target;
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const maxKeys = parseMaxKeys(query);
  const urlEncode = parseUrlEncoding(query);
  const page = listPage(await store.listKeys(bucket), { prefix, delimiter, maxKeys, after });
  const metadata = await Promise.all(page.keys.map((key) => store.headObject(bucket, key)));
  const objects = page.keys.flatMap((key, i) => {
    const entry = metadata[i];
    // Deleted between listing the keys and reading their metadata.
    return entry === undefined ? [] : [{ key, ...entry }];
  });
  return { bucket, prefix, delimiter, maxKeys, urlEncode, objects, page };
}

const OPERATIONS: Record<S3Operation, Operation> = {
  async ListBuckets(_request, { store }) {
    return xml(listBucketsXml(await store.listBuckets()));
  },

  async CreateBucket(request, { store }) {
    const bucket = bucketOf(request);
    if (!isValidBucketName(bucket)) {
      throw new S3Error("InvalidBucketName", `The specified bucket is not valid: ${bucket}`);
    }
    // A CreateBucketConfiguration may come along; its location constraint does not matter here.
    await request.readBody();
    if (!(await store.createBucket(bucket))) {
      throw new S3Error(
        "BucketAlreadyOwnedByYou",
        `Your previous request to create the named bucket succeeded and you already own it: ${bucket}`,
      );
    }
    return { status: 200, headers: { Location: `/${bucket}` } };
  },

  async HeadBucket(request, { store, region }) {
    const bucket = bucketOf(request);
    if (!(await store.hasBucket(bucket))) throw noSuchBucket(bucket);
    return { status: 200, headers: { "x-amz-bucket-region": region } };
  },

  async DeleteBucket(request, { store }) {
    await store.deleteBucket(bucketOf(request));
    return { status: 204, headers: {} };
  },

  async GetBucketLocation(request, { store, region }) {
    const bucket = bucketOf(request);
    if (!(await store.hasBucket(bucket))) throw noSuchBucket(bucket);
    return xml(bucketLocationXml(region));
  },

  async ListObjects(request, { store }) {
    const marker = request.target.query.get("marker") ?? "";
    return xml(listObjectsV1Xml(await listing(request, store, marker), marker));
  },

  async ListObjectsV2(request, { store }) {
    const { query } = request.target;
    const startAfter = query.get("start-after") ?? "";
    const continuationToken = query.get("continuation-token") ?? "";
    const after =
      continuationToken === "" ? startAfter : decodeContinuationToken(continuationToken);
    const input = await listing(request, store, after);
    const last = input.page.lastEntry;
    const nextContinuationToken =
      last === undefined ? undefined : Buffer.from(last, "utf8").toString("base64url");
    return xml(listObjectsV2Xml(input, { startAfter, continuationToken, nextContinuationToken }));
  },

  async DeleteObjects(request, { store }) {
    const bucket = bucketOf(request);
    const body = await request.readBody();
    md5Of(body, request.headers);
    const { quiet, keys } = parseDeleteRequest(body.toString("utf8"));
    if (!(await store.hasBucket(bucket))) throw noSuchBucket(bucket);
    const outcomes = await Promise.all(
      keys.map(async (key): Promise<DeleteFailure | undefined> => {
        try {
          checkKeyLength(key);
          await store.deleteObject(bucket, key);
          return undefined;
        } catch (error) {
          const { code, message } =
            error instanceof S3Error ? error : { code: "InternalError", message: String(error) };
          return { key, code, message };
        }
      }),
    );
    const failures = outcomes.filter((outcome) => outcome !== undefined);
    const deleted = quiet ? [] : keys.filter((_key, i) => outcomes[i] === undefined);
    return xml(deleteResultXml(deleted, failures));
  },

  async PutObject(request, { store }) {
    const key = keyOf(request);
    checkKeyLength(key);
    const body = await request.readBody();
    const etag = `"${md5Of(body, request.headers).toString("hex")}"`;
    const contentType = headerText(request.headers, "content-type") ?? DEFAULT_CONTENT_TYPE;
    await store.putObject(bucketOf(request), key, body, { etag, contentType });
    return { status: 200, headers: { ETag: etag } };
  },

  GetObject: (request, { store }) => readObject(request, store, true),

  HeadObject: (request, { store }) => readObject(request, store, false),

  async DeleteObject(request, { store }) {
    await store.deleteObject(bucketOf(request), keyOf(request));
    return { status: 204, headers: {} };
  },
};

export function runOperation(
  operation: S3Operation,
  request: OperationRequest,
  context: OperationContext,
): Promise<S3Response> {
  return OPERATIONS[operation](request, context);
}
