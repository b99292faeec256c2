import { headerText } from "../http-headers.ts";
import type { ObjectMetadata, ObjectStore } from "../object-store.ts";
import { parseRange } from "../range.ts";
import { S3Error } from "../s3-error.ts";
import type { RequestTarget } from "../s3-route.ts";
import { bucketOf, keyOf, noSuchKey } from "./request-parts.ts";
import type { OperationRequest, S3Response, TestbedOperation } from "./testbed-operation.ts";

function objectHeaders(metadata: ObjectMetadata): Record<string, string | number> {
  return {
    "Content-Type": metadata.contentType,
    "Content-Length": metadata.sizeBytes,
    ETag: metadata.etag,
    "Last-Modified": metadata.lastModified.toUTCString(),
    "Accept-Ranges": "bytes",
  };
}

/** GET and HEAD of one part of a multipart object, which the testbed does not keep apart. */
export function refuseReadByPartNumber({ query }: RequestTarget): void {
  if (query.has("partNumber")) {
    throw new S3Error(
      "NotImplemented",
      "The testbed does not implement reading an object by part number",
    );
  }
}

/** GET and HEAD share range handling; only GET reads the body. */
export async function readObject(
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

export const getObjectOperation: TestbedOperation<"GetObject"> = {
  name: "GetObject",
  route: { names: "object", method: "GET", refuse: refuseReadByPartNumber },
  profiled: "timing-and-body",
  handle: (request, { store }) => readObject(request, store, true),
};
