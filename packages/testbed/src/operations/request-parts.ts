/** The parts of a request most operations read, checked as S3 checks them. */
import { S3_MAX_KEY_BYTES } from "@taillab/core";
import { headerText } from "../http-headers.ts";
import { S3Error } from "../s3-error.ts";
import type { S3Operation } from "./registry.ts";
import { XML_CONTENT_TYPE } from "../s3-xml.ts";
import type { OperationRequest, S3Response } from "./testbed-operation.ts";

const DEFAULT_CONTENT_TYPE = "binary/octet-stream";
/** The most keys, parts or uploads one listing page holds, and the default. */
const MAX_KEYS = 1000;
export const DIGITS = /^\d+$/;

export function xml(body: string): S3Response {
  return { status: 200, headers: { "Content-Type": XML_CONTENT_TYPE }, body };
}

// resolveOperation routes to a bucket operation only when the request names a bucket, and to an
// object operation only when it also names a key.
export function bucketOf(request: OperationRequest): string {
  return request.target.bucket as string;
}

export function keyOf(request: OperationRequest): string {
  return request.target.key as string;
}

export function checkKeyLength(key: string): void {
  if (Buffer.byteLength(key) > S3_MAX_KEY_BYTES) {
    throw new S3Error(
      "KeyTooLongError",
      `Your key is too long: the limit is ${S3_MAX_KEY_BYTES} bytes of UTF-8`,
    );
  }
}

export function noSuchKey(key: string): S3Error {
  return new S3Error("NoSuchKey", `The specified key does not exist: ${key}`);
}

/** A whole number from the query, `fallback` when absent. */
export function parseCount(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  if (!DIGITS.test(text)) {
    throw new S3Error("InvalidArgument", `${name} must be a whole number from 0, not "${text}"`);
  }
  return Number(text);
}

/** max-keys, max-parts, max-uploads: at most MAX_KEYS, as in S3. */
export function parsePageSize(query: URLSearchParams, name: string): number {
  return Math.min(parseCount(query, name, MAX_KEYS), MAX_KEYS);
}

export function contentTypeOf(request: OperationRequest): string {
  return headerText(request.headers, "content-type") ?? DEFAULT_CONTENT_TYPE;
}

export function uploadIdOf(request: OperationRequest, operation: S3Operation): string {
  const uploadId = request.target.query.get("uploadId");
  if (uploadId === null || uploadId === "") {
    throw new S3Error("InvalidArgument", `${operation} needs an uploadId in the query`);
  }
  return uploadId;
}

export function parseUrlEncoding(query: URLSearchParams): boolean {
  const encoding = query.get("encoding-type");
  if (encoding !== null && encoding !== "url") {
    throw new S3Error("InvalidArgument", `encoding-type must be "url", not "${encoding}"`);
  }
  return encoding === "url";
}
