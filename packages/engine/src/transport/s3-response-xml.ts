import { xmlElementText, xmlElements } from "./s3-xml-text.ts";

/** The fields the fast path reads from S3's XML answers (the SDK path gets them from the SDK). */

export interface ListObjectsPage {
  keyCount: number;
  nextContinuationToken: string | null;
}

/** A ListObjectsV2 answer. KeyCount, or the listed entries when a server leaves KeyCount out. */
export function parseListObjectsPage(xml: string): ListObjectsPage {
  const keyCountText = xmlElementText(xml, "KeyCount");
  const keyCount =
    keyCountText === null
      ? xmlElements(xml, "Contents").length + xmlElements(xml, "CommonPrefixes").length
      : Number.parseInt(keyCountText, 10) || 0;
  const truncated = xmlElementText(xml, "IsTruncated") === "true";
  const token = truncated ? xmlElementText(xml, "NextContinuationToken") : null;
  return { keyCount, nextContinuationToken: token || null };
}

/** The number of buckets in a ListBuckets answer. */
export function countListedBuckets(xml: string): number {
  return xmlElements(xml, "Bucket").length;
}

/** The keys a DeleteObjects answer could not delete, with their error codes. */
export function parseDeleteErrors(xml: string): { key: string; code: string }[] {
  return xmlElements(xml, "Error").map((error) => ({
    key: xmlElementText(error, "Key") ?? "",
    code: xmlElementText(error, "Code") ?? "Unknown",
  }));
}

/** A top-level text field (UploadId, ETag), or null when absent or empty. */
export function parseTextField(xml: string, name: string): string | null {
  return xmlElementText(xml, name) || null;
}
