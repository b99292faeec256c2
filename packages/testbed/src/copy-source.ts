/** The object a CopyObject copies, from its `x-amz-copy-source` header. Pure. */
import { S3Error } from "./s3-error.ts";

export interface CopySource {
  bucket: string;
  key: string;
}

function invalid(header: string, why: string): S3Error {
  return new S3Error("InvalidArgument", `Invalid x-amz-copy-source "${header}": ${why}`);
}

/**
 * `bucket/key` or `/bucket/key`, percent-encoded, optionally followed by `?versionId=…`. The
 * testbed keeps no versions, so naming one is NotImplemented rather than quietly copying the
 * current object.
 */
export function parseCopySource(header: string): CopySource {
  const question = header.indexOf("?");
  const path = question === -1 ? header : header.slice(0, question);
  if (question !== -1 && new URLSearchParams(header.slice(question + 1)).has("versionId")) {
    throw new S3Error("NotImplemented", "The testbed does not implement copying an object version");
  }
  const start = path.startsWith("/") ? 1 : 0;
  const slash = path.indexOf("/", start);
  if (slash === -1 || slash === start || slash === path.length - 1) {
    throw invalid(header, "it must name the source bucket and key, as sourcebucket/sourcekey");
  }
  try {
    return {
      bucket: decodeURIComponent(path.slice(start, slash)),
      key: decodeURIComponent(path.slice(slash + 1)),
    };
  } catch {
    throw invalid(header, "it is not validly percent-encoded");
  }
}
