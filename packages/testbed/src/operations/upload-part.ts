import { S3_MAX_PART_NUMBER } from "@taillab/core";
import type { IncomingHttpHeaders } from "node:http";
import { checkBodyDigests } from "../body-digests.ts";
import { S3Error } from "../s3-error.ts";
import type { RequestTarget } from "../s3-route.ts";
import { COPY_SOURCE_HEADER } from "./copy-object.ts";
import { bucketOf, DIGITS, keyOf, uploadIdOf } from "./request-parts.ts";
import type { OperationRequest, TestbedOperation } from "./testbed-operation.ts";

function partNumberOf(request: OperationRequest): number {
  const text = request.target.query.get("partNumber") ?? "";
  const partNumber = DIGITS.test(text) ? Number(text) : 0;
  if (partNumber < 1 || partNumber > S3_MAX_PART_NUMBER) {
    throw new S3Error(
      "InvalidArgument",
      `Part number must be an integer between 1 and ${S3_MAX_PART_NUMBER}, inclusive, not "${text}"`,
    );
  }
  return partNumber;
}

/** UploadPartCopy is an UploadPart whose part is copied from another object. */
function refuseUploadPartCopy(_target: RequestTarget, headers: IncomingHttpHeaders): void {
  if (headers[COPY_SOURCE_HEADER] !== undefined) {
    throw new S3Error("NotImplemented", "The testbed does not implement UploadPartCopy");
  }
}

export const uploadPartOperation: TestbedOperation<"UploadPart"> = {
  name: "UploadPart",
  route: {
    names: "object",
    method: "PUT",
    query: ["uploadId", "partNumber"],
    refuse: refuseUploadPartCopy,
  },
  profiled: "timing",
  async handle(request, { store }) {
    const uploadId = uploadIdOf(request, "UploadPart");
    const partNumber = partNumberOf(request);
    const body = await request.readBody();
    const etag = `"${checkBodyDigests(body, request.headers).toString("hex")}"`;
    await store.uploadPart(bucketOf(request), keyOf(request), uploadId, { partNumber, etag, body });
    return { status: 200, headers: { ETag: etag } };
  },
};
