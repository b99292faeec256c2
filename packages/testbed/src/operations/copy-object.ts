import { hash } from "node:crypto";
import { headerText } from "../http-headers.ts";
import { S3Error } from "../s3-error.ts";
import { element, s3Document } from "../s3-xml.ts";
import { bucketOf, checkKeyLength, contentTypeOf, keyOf, noSuchKey, xml } from "./request-parts.ts";
import type { OperationRequest, TestbedOperation } from "./testbed-operation.ts";

/** The object a copy copies: `/bucket/key`, the key encoded as in a path. */
export const COPY_SOURCE_HEADER = "x-amz-copy-source";

export interface CopySource {
  bucket: string;
  key: string;
}

function invalid(header: string, why: string): S3Error {
  return new S3Error("InvalidArgument", `Invalid ${COPY_SOURCE_HEADER} "${header}": ${why}`);
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

function copyObjectResultXml(object: { etag: string; lastModified: Date }): string {
  return s3Document(
    "CopyObjectResult",
    `${element("LastModified", object.lastModified.toISOString())}${element("ETag", object.etag)}`,
  );
}

export const copyObjectOperation: TestbedOperation<"CopyObject"> = {
  name: "CopyObject",
  route: { names: "object", method: "PUT", header: COPY_SOURCE_HEADER },
  profiled: "timing",
  async handle(request, { store }) {
    const bucket = bucketOf(request);
    const key = keyOf(request);
    checkKeyLength(key);
    const source = parseCopySource(headerText(request.headers, COPY_SOURCE_HEADER) ?? "");
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
};
