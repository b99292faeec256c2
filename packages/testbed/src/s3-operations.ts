/** What each S3 operation does to the store and what it answers, as a plain response. */
import { hash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { checkBodyDigests } from "./body-digests.ts";
import { isValidBucketName } from "./bucket-name.ts";
import { parseCopySource } from "./copy-source.ts";
import { headerText } from "./http-headers.ts";
import { listPage } from "./list-objects.ts";
import { MAX_PART_NUMBER, planCompletion } from "./multipart-completion.ts";
import { partsPage, uploadsPage } from "./multipart-listing.ts";
import type { ObjectMetadata, ObjectStore } from "./object-store.ts";
import { parseRange } from "./range.ts";
import { noSuchBucket, S3Error } from "./s3-error.ts";
import type { RequestTarget, S3Operation } from "./s3-route.ts";
import {
  bucketLocationXml,
  completeMultipartUploadXml,
  copyObjectResultXml,
  deleteResultXml,
  initiateMultipartUploadXml,
  listBucketsXml,
  listMultipartUploadsXml,
  listObjectsV1Xml,
  listObjectsV2Xml,
  listPartsXml,
  parseCompleteMultipartUpload,
  parseDeleteRequest,
  XML_CONTENT_TYPE,
  type DeleteFailure,
  type ListObjectsXmlInput,
} from "./s3-xml.ts";

const DEFAULT_CONTENT_TYPE = "binary/octet-stream";
/** The most keys, parts or uploads one listing page holds, and the default. */
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
  /** The least size of every part of a multipart upload but the last (S3: 5 MiB). */
  minPartSizeBytes: number;
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

function objectHeaders(metadata: ObjectMetadata): Record<string, string | number> {
  return {
    "Content-Type": metadata.contentType,
    "Content-Length": metadata.sizeBytes,
    ETag: metadata.etag,
    "Last-Modified": metadata.lastModified.toUTCString(),
    "Accept-Ranges": "bytes",
  };
}

function noSuchKey(key: string): S3Error {
  return new S3Error("NoSuchKey", `The specified key does not exist: ${key}`);
}

/**
 * True for a PUT's `If-None-Match: *` (create only, as AWS S3 and MinIO honour it); other
 * conditions are refused as AWS refuses them rather than ignored.
 */
function createOnlyCondition(request: OperationRequest): boolean {
  const ifNoneMatch = headerText(request.headers, "if-none-match");
  if (request.headers["if-match"] !== undefined) {
    throw new S3Error("NotImplemented", "The testbed does not implement If-Match on PUT");
  }
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() !== "*") {
    throw new S3Error("NotImplemented", "If-None-Match on PUT takes only *");
  }
  return true;
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
  if (object === undefined) throw noSuchKey(key);
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

/** A whole number from the query, `fallback` when absent. */
function parseCount(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  if (!DIGITS.test(text)) {
    throw new S3Error("InvalidArgument", `${name} must be a whole number from 0, not "${text}"`);
  }
  return Number(text);
}

/** max-keys, max-parts, max-uploads: at most MAX_KEYS, as in S3. */
function parsePageSize(query: URLSearchParams, name: string): number {
  return Math.min(parseCount(query, name, MAX_KEYS), MAX_KEYS);
}

function contentTypeOf(request: OperationRequest): string {
  return headerText(request.headers, "content-type") ?? DEFAULT_CONTENT_TYPE;
}

function uploadIdOf(request: OperationRequest, operation: S3Operation): string {
  const uploadId = request.target.query.get("uploadId");
  if (uploadId === null || uploadId === "") {
    throw new S3Error("InvalidArgument", `${operation} needs an uploadId in the query`);
  }
  return uploadId;
}

function partNumberOf(request: OperationRequest): number {
  const text = request.target.query.get("partNumber") ?? "";
  const partNumber = DIGITS.test(text) ? Number(text) : 0;
  if (partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new S3Error(
      "InvalidArgument",
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive, not "${text}"`,
    );
  }
  return partNumber;
}

/** Conditional copies are rare in benchmarks; refusing them beats copying regardless. */
const COPY_CONDITIONS = [
  "x-amz-copy-source-if-match",
  "x-amz-copy-source-if-none-match",
  "x-amz-copy-source-if-modified-since",
  "x-amz-copy-source-if-unmodified-since",
];

function metadataDirectiveOf(request: OperationRequest): "COPY" | "REPLACE" {
  const directive = headerText(request.headers, "x-amz-metadata-directive") ?? "COPY";
  if (directive !== "COPY" && directive !== "REPLACE") {
    throw new S3Error(
      "InvalidArgument",
      `x-amz-metadata-directive must be COPY or REPLACE, not "${directive}"`,
    );
  }
  return directive;
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
  const maxKeys = parsePageSize(query, "max-keys");
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
    checkBodyDigests(body, request.headers);
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
    const ifAbsent = createOnlyCondition(request);
    const body = await request.readBody();
    const etag = `"${checkBodyDigests(body, request.headers).toString("hex")}"`;
    await store.putObject(
      bucketOf(request),
      key,
      body,
      { etag, contentType: contentTypeOf(request) },
      { ifAbsent },
    );
    return { status: 200, headers: { ETag: etag } };
  },

  async CopyObject(request, { store }) {
    const bucket = bucketOf(request);
    const key = keyOf(request);
    checkKeyLength(key);
    const source = parseCopySource(headerText(request.headers, "x-amz-copy-source") ?? "");
    const condition = COPY_CONDITIONS.find((name) => request.headers[name] !== undefined);
    if (condition !== undefined) {
      throw new S3Error("NotImplemented", `The testbed does not implement ${condition}`);
    }
    const directive = metadataDirectiveOf(request);
    await request.readBody();
    if (source.bucket === bucket && source.key === key && directive === "COPY") {
      throw new S3Error(
        "InvalidRequest",
        "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata",
      );
    }
    const object = await store.getObject(source.bucket, source.key);
    if (object === undefined) throw noSuchKey(source.key);
    // A copy is one piece however the source was uploaded, so its ETag is its MD5.
    const etag = object.etag.includes("-") ? `"${hash("md5", object.body, "hex")}"` : object.etag;
    const contentType = directive === "COPY" ? object.contentType : contentTypeOf(request);
    const copied = await store.putObject(bucket, key, object.body, { etag, contentType });
    return xml(copyObjectResultXml(copied));
  },

  GetObject: (request, { store }) => readObject(request, store, true),

  HeadObject: (request, { store }) => readObject(request, store, false),

  async DeleteObject(request, { store }) {
    await store.deleteObject(bucketOf(request), keyOf(request));
    return { status: 204, headers: {} };
  },

  async CreateMultipartUpload(request, { store }) {
    const key = keyOf(request);
    checkKeyLength(key);
    await request.readBody();
    const upload = await store.createMultipartUpload(
      bucketOf(request),
      key,
      contentTypeOf(request),
    );
    return xml(initiateMultipartUploadXml(upload));
  },

  async UploadPart(request, { store }) {
    const uploadId = uploadIdOf(request, "UploadPart");
    const partNumber = partNumberOf(request);
    const body = await request.readBody();
    const etag = `"${checkBodyDigests(body, request.headers).toString("hex")}"`;
    await store.uploadPart(bucketOf(request), keyOf(request), uploadId, { partNumber, etag, body });
    return { status: 200, headers: { ETag: etag } };
  },

  async CompleteMultipartUpload(request, { store, minPartSizeBytes }) {
    const bucket = bucketOf(request);
    const key = keyOf(request);
    const uploadId = uploadIdOf(request, "CompleteMultipartUpload");
    const requested = parseCompleteMultipartUpload((await request.readBody()).toString("utf8"));
    const object = await store.completeMultipartUpload(bucket, key, uploadId, (parts) =>
      planCompletion(parts, requested, minPartSizeBytes),
    );
    const host = headerText(request.headers, "host") ?? "localhost";
    const location = `http://${host}${request.target.rawPath}`;
    return xml(completeMultipartUploadXml({ location, bucket, key, etag: object.etag }));
  },

  async AbortMultipartUpload(request, { store }) {
    const uploadId = uploadIdOf(request, "AbortMultipartUpload");
    await store.abortMultipartUpload(bucketOf(request), keyOf(request), uploadId);
    return { status: 204, headers: {} };
  },

  async ListParts(request, { store }) {
    const { query } = request.target;
    const uploadId = uploadIdOf(request, "ListParts");
    const partNumberMarker = parseCount(query, "part-number-marker", 0);
    const maxParts = parsePageSize(query, "max-parts");
    const { upload, parts } = await store.listParts(bucketOf(request), keyOf(request), uploadId);
    const page = partsPage(parts, partNumberMarker, maxParts);
    return xml(listPartsXml(upload, { partNumberMarker, maxParts }, page));
  },

  async ListMultipartUploads(request, { store }) {
    const bucket = bucketOf(request);
    const { query } = request.target;
    if (query.get("delimiter")) {
      throw new S3Error(
        "NotImplemented",
        "The testbed does not implement a delimiter in ListMultipartUploads",
      );
    }
    const listQuery = {
      prefix: query.get("prefix") ?? "",
      keyMarker: query.get("key-marker") ?? "",
      uploadIdMarker: query.get("upload-id-marker") ?? "",
      maxUploads: parsePageSize(query, "max-uploads"),
      urlEncode: parseUrlEncoding(query),
    };
    const page = uploadsPage(await store.listMultipartUploads(bucket), listQuery);
    return xml(listMultipartUploadsXml(bucket, listQuery, page));
  },
};

export function runOperation(
  operation: S3Operation,
  request: OperationRequest,
  context: OperationContext,
): Promise<S3Response> {
  return OPERATIONS[operation](request, context);
}
