/**
 * CompleteMultipartUpload's rules, as S3 applies them: which stored parts the client's list
 * names, and the ETag of the object they make. Pure.
 */
import { hash } from "node:crypto";
import { S3Error } from "./s3-error.ts";
import type { CompletionPlan, PartMetadata } from "./upload-index.ts";

/** One `<Part>` of the request: the part number and the ETag UploadPart answered. */
export interface CompletedPart {
  partNumber: number;
  etag: string;
}

const QUOTES = /^"|"$/g;

/** ETags compare with or without their quotes, as S3 accepts both. */
function bareEtag(etag: string): string {
  return etag.trim().replace(QUOTES, "").toLowerCase();
}

/**
 * S3's ETag for an object made of parts: the MD5 of the parts' binary MD5s one after the other,
 * then `-` and the number of parts, quoted. Not the MD5 of the object.
 */
export function multipartEtag(partEtags: readonly string[]): string {
  const md5s = Buffer.concat(partEtags.map((etag) => Buffer.from(bareEtag(etag), "hex")));
  return `"${hash("md5", md5s, "hex")}-${partEtags.length}"`;
}

function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${bytes} bytes (${mib} MiB)` : `${bytes} bytes`;
}

/**
 * Checks the client's part list against the stored parts: part numbers ascending
 * (InvalidPartOrder), every part stored with the ETag given (InvalidPart), every part but the
 * last at least `minPartSizeBytes` (EntityTooSmall). Parts left out of the list are dropped.
 */
export function planCompletion(
  stored: ReadonlyMap<number, PartMetadata>,
  requested: readonly CompletedPart[],
  minPartSizeBytes: number,
): CompletionPlan {
  for (let i = 1; i < requested.length; i++) {
    const previous = (requested[i - 1] as CompletedPart).partNumber;
    const current = (requested[i] as CompletedPart).partNumber;
    if (current <= previous) {
      throw new S3Error(
        "InvalidPartOrder",
        `The list of parts was not in ascending order: part ${current} follows part ${previous}`,
      );
    }
  }
  const parts = requested.map(({ partNumber, etag }) => {
    const part = stored.get(partNumber);
    if (part === undefined) {
      throw new S3Error(
        "InvalidPart",
        `One or more of the specified parts could not be found: part ${partNumber} was not uploaded`,
      );
    }
    if (bareEtag(part.etag) !== bareEtag(etag)) {
      throw new S3Error(
        "InvalidPart",
        `The specified entity tag might not have matched the part's: part ${partNumber} has ETag ${part.etag}, not ${etag}`,
      );
    }
    return part;
  });
  let sizeBytes = 0;
  parts.forEach((part, i) => {
    if (i < parts.length - 1 && part.sizeBytes < minPartSizeBytes) {
      throw new S3Error(
        "EntityTooSmall",
        `Your proposed upload is smaller than the minimum allowed size: part ${part.partNumber} is ${part.sizeBytes} bytes, and every part but the last must be at least ${sizeText(minPartSizeBytes)}`,
      );
    }
    sizeBytes += part.sizeBytes;
  });
  return {
    partNumbers: parts.map((part) => part.partNumber),
    etag: multipartEtag(parts.map((part) => part.etag)),
    sizeBytes,
  };
}
