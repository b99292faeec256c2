/** Which bucket, key and S3 operation a request addresses. Pure: no I/O, no store. */
import { S3Error } from "./s3-error.ts";

export type S3Operation =
  | "ListBuckets"
  | "CreateBucket"
  | "HeadBucket"
  | "DeleteBucket"
  | "GetBucketLocation"
  | "ListObjects"
  | "ListObjectsV2"
  | "DeleteObjects"
  | "PutObject"
  | "GetObject"
  | "HeadObject"
  | "DeleteObject"
  | "CopyObject"
  | "CreateMultipartUpload"
  | "UploadPart"
  | "CompleteMultipartUpload"
  | "AbortMultipartUpload"
  | "ListParts"
  | "ListMultipartUploads";

export interface RequestTarget {
  /** As sent, still percent-encoded: what SigV4 signs. */
  rawPath: string;
  rawQuery: string;
  query: URLSearchParams;
  bucket: string | null;
  key: string | null;
}

/**
 * S3 sub-resources the testbed does not implement. A request naming one gets NotImplemented
 * rather than being mistaken for the plain operation (`PUT /b/k?acl` is not a PutObject).
 */
const UNSUPPORTED_SUBRESOURCES = new Set([
  "accelerate",
  "acl",
  "analytics",
  "attributes",
  "cors",
  "encryption",
  "intelligent-tiering",
  "inventory",
  "legal-hold",
  "lifecycle",
  "logging",
  "metrics",
  "notification",
  "object-lock",
  "ownershipControls",
  "policy",
  "policyStatus",
  "publicAccessBlock",
  "replication",
  "requestPayment",
  "restore",
  "retention",
  "select",
  "session",
  "tagging",
  "torrent",
  "versionId",
  "versioning",
  "versions",
  "website",
]);

const NO_QUERY = new URLSearchParams();

function decodePathPart(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw new S3Error("InvalidURI", `Couldn't parse the specified URI: ${text}`);
  }
}

/** The host name without its port, lower-cased; IPv6 literals keep their brackets. */
function hostName(host: string): string {
  const lower = host.toLowerCase();
  const colon = lower.lastIndexOf(":");
  return colon === -1 || lower.endsWith("]") ? lower : lower.slice(0, colon);
}

/**
 * Splits a request into bucket and key. The bucket comes from the Host header when it is
 * `<bucket><suffix>` for one of `virtualHostSuffixes` (e.g. ".localhost"), otherwise from the
 * first path segment.
 */
export function parseTarget(
  url: string,
  host: string | undefined,
  virtualHostSuffixes: readonly string[],
): RequestTarget {
  const question = url.indexOf("?");
  const rawPath = question === -1 ? url : url.slice(0, question);
  const rawQuery = question === -1 ? "" : url.slice(question + 1);
  const query = rawQuery === "" ? NO_QUERY : new URLSearchParams(rawQuery);
  if (!rawPath.startsWith("/")) {
    throw new S3Error("InvalidURI", `Couldn't parse the specified URI: ${url}`);
  }

  const name = host === undefined ? "" : hostName(host);
  for (const suffix of virtualHostSuffixes) {
    if (name.length > suffix.length && name.endsWith(suffix)) {
      const key = decodePathPart(rawPath.slice(1));
      return { rawPath, rawQuery, query, bucket: name.slice(0, -suffix.length), key: key || null };
    }
  }
  const slash = rawPath.indexOf("/", 1);
  const bucket = decodePathPart(slash === -1 ? rawPath.slice(1) : rawPath.slice(1, slash));
  const key = slash === -1 ? "" : decodePathPart(rawPath.slice(slash + 1));
  return { rawPath, rawQuery, query, bucket: bucket || null, key: key || null };
}

function methodNotAllowed(method: string, what: string): S3Error {
  return new S3Error(
    "MethodNotAllowed",
    `The specified method is not allowed against ${what}: ${method}`,
  );
}

export function resolveOperation(
  method: string,
  target: RequestTarget,
  copySource: string | undefined,
): S3Operation {
  const { bucket, key, query } = target;
  if (bucket === null) {
    if (key !== null)
      throw new S3Error("InvalidBucketName", "The request names a key but no bucket");
    if (method === "GET") return "ListBuckets";
    throw methodNotAllowed(method, "the service");
  }
  if (query !== NO_QUERY) {
    for (const name of query.keys()) {
      if (UNSUPPORTED_SUBRESOURCES.has(name)) {
        throw new S3Error(
          "NotImplemented",
          `The testbed does not implement the "${name}" sub-resource`,
        );
      }
    }
  }
  if (key === null) {
    if (
      query.has("uploadId") ||
      query.has("partNumber") ||
      (query.has("uploads") && method !== "GET")
    ) {
      // Not a bucket request: a DELETE /bucket?uploadId=… that lost its key must not become
      // DeleteBucket.
      throw new S3Error("InvalidRequest", "A multipart upload request must name a key");
    }
    switch (method) {
      case "PUT":
        return "CreateBucket";
      case "HEAD":
        return "HeadBucket";
      case "DELETE":
        return "DeleteBucket";
      case "GET":
        if (query.has("uploads")) return "ListMultipartUploads";
        if (query.has("location")) return "GetBucketLocation";
        if (!query.has("list-type")) return "ListObjects";
        if (query.get("list-type") === "2") return "ListObjectsV2";
        throw new S3Error(
          "InvalidArgument",
          `list-type must be 2, not "${query.get("list-type")}"`,
        );
      case "POST":
        if (query.has("delete")) return "DeleteObjects";
        throw new S3Error(
          "NotImplemented",
          "The testbed does not implement POST uploads (browser forms)",
        );
      default:
        throw methodNotAllowed(method, "a bucket");
    }
  }
  // Most object requests carry no query; they skip the sub-resource look-ups.
  const hasQuery = query !== NO_QUERY;
  const uploadId = hasQuery && query.has("uploadId");
  switch (method) {
    case "PUT":
      if (uploadId || (hasQuery && query.has("partNumber"))) {
        if (copySource !== undefined) {
          throw new S3Error("NotImplemented", "The testbed does not implement UploadPartCopy");
        }
        return "UploadPart";
      }
      return copySource === undefined ? "PutObject" : "CopyObject";
    case "POST":
      if (hasQuery && query.has("uploads")) return "CreateMultipartUpload";
      if (uploadId) return "CompleteMultipartUpload";
      throw methodNotAllowed(method, "an object");
    case "GET":
      if (uploadId) return "ListParts";
      if (hasQuery) refusePartNumber(query);
      return "GetObject";
    case "HEAD":
      if (hasQuery) refusePartNumber(query);
      return "HeadObject";
    case "DELETE":
      return uploadId ? "AbortMultipartUpload" : "DeleteObject";
    default:
      throw methodNotAllowed(method, "an object");
  }
}

/** GET and HEAD of one part of a multipart object, which the testbed does not keep apart. */
function refusePartNumber(query: URLSearchParams): void {
  if (query.has("partNumber")) {
    throw new S3Error(
      "NotImplemented",
      "The testbed does not implement reading an object by part number",
    );
  }
}
