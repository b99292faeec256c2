import { escapeXml, S3_MAX_DELETE_KEYS, S3_MAX_PART_NUMBER } from "@taillab/core";
import type { ByteRange, CompletedPart } from "./object-transport.ts";

/**
 * Checks and wire forms shared by both transports, so the two send the same thing. A bad argument
 * is a programmer error and throws.
 */

/** `bytes=start-endInclusive`. */
export function rangeHeaderValue(range: ByteRange): string {
  const { start, endInclusive } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(endInclusive) || start < 0) {
    throw new Error(`transport: invalid byte range ${start}-${endInclusive}`);
  }
  if (endInclusive < start) {
    throw new Error(`transport: byte range ${start}-${endInclusive} ends before it starts`);
  }
  return `bytes=${start}-${endInclusive}`;
}

export function assertPartNumber(partNumber: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > S3_MAX_PART_NUMBER) {
    throw new Error(`transport: part number must be 1…${S3_MAX_PART_NUMBER}, got ${partNumber}`);
  }
}

export function assertMaxKeys(maxKeys: number | undefined): void {
  if (maxKeys !== undefined && (!Number.isInteger(maxKeys) || maxKeys < 0)) {
    throw new Error(`transport: maxKeys must be a non-negative integer, got ${maxKeys}`);
  }
}

export function assertUploadId(uploadId: string): void {
  if (uploadId.length === 0) throw new Error("transport: an upload ID cannot be empty");
}

export function assertCompletedParts(parts: readonly CompletedPart[]): void {
  if (parts.length === 0) throw new Error("transport: a multipart upload needs at least one part");
  parts.forEach(({ partNumber }) => assertPartNumber(partNumber));
}

export function assertDeleteKeys(keys: readonly string[]): void {
  if (keys.length === 0 || keys.length > S3_MAX_DELETE_KEYS) {
    throw new Error(
      `transport: DeleteObjects takes 1…${S3_MAX_DELETE_KEYS} keys, got ${keys.length}`,
    );
  }
  if (keys.some((key) => key.length === 0)) {
    throw new Error("transport: an S3 object key cannot be empty");
  }
}

const S3_XMLNS = "http://s3.amazonaws.com/doc/2006-03-01/";

/** The CompleteMultipartUpload request body. */
export function completeMultipartUploadXml(parts: readonly CompletedPart[]): string {
  const items = parts
    .map(
      ({ partNumber, etag }) =>
        `<Part><ETag>${escapeXml(etag)}</ETag><PartNumber>${partNumber}</PartNumber></Part>`,
    )
    .join("");
  return `<CompleteMultipartUpload xmlns="${S3_XMLNS}">${items}</CompleteMultipartUpload>`;
}

/** The DeleteObjects request body, in quiet mode (only failures are listed in the answer). */
export function deleteObjectsXml(keys: readonly string[]): string {
  const items = keys.map((key) => `<Object><Key>${escapeXml(key)}</Key></Object>`).join("");
  return `<Delete xmlns="${S3_XMLNS}">${items}<Quiet>true</Quiet></Delete>`;
}

/** The CreateBucket request body outside us-east-1 (where none is sent). */
export function createBucketXml(region: string): string | null {
  if (region === "us-east-1") return null;
  return (
    `<CreateBucketConfiguration xmlns="${S3_XMLNS}">` +
    `<LocationConstraint>${escapeXml(region)}</LocationConstraint>` +
    `</CreateBucketConfiguration>`
  );
}
