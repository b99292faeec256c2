import { checkBodyDigests } from "../body-digests.ts";
import { MAX_PART_NUMBER } from "../multipart-completion.ts";
import { S3Error } from "../s3-error.ts";
import { bucketOf, DIGITS, keyOf, uploadIdOf } from "./request-parts.ts";
import type { OperationRequest, TestbedOperation } from "./testbed-operation.ts";

function partNumberOf(request: OperationRequest): number {
  const text = request.target.query.get("partNumber") ?? "";
  const partNumber = DIGITS.test(text) ? Number(text) : 0;
  if (partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new S3Error(
      "InvalidArgument",
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive, not "${text}"`,
    );
  }
  return partNumber;
}

export const uploadPartOperation: TestbedOperation<"UploadPart"> = {
  name: "UploadPart",
  async handle(request, { store }) {
    const uploadId = uploadIdOf(request, "UploadPart");
    const partNumber = partNumberOf(request);
    const body = await request.readBody();
    const etag = `"${checkBodyDigests(body, request.headers).toString("hex")}"`;
    await store.uploadPart(bucketOf(request), keyOf(request), uploadId, { partNumber, etag, body });
    return { status: 200, headers: { ETag: etag } };
  },
};
