import { checkBodyDigests } from "../body-digests.ts";
import { headerText } from "../http-headers.ts";
import { S3Error } from "../s3-error.ts";
import { bucketOf, checkKeyLength, contentTypeOf, keyOf } from "./request-parts.ts";
import type { OperationRequest, TestbedOperation } from "./testbed-operation.ts";

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

export const putObjectOperation: TestbedOperation<"PutObject"> = {
  name: "PutObject",
  route: { names: "object", method: "PUT" },
  profiled: "timing",
  async handle(request, { store }) {
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
};
