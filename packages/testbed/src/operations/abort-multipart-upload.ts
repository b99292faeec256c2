import { bucketOf, keyOf, uploadIdOf } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const abortMultipartUploadOperation: TestbedOperation<"AbortMultipartUpload"> = {
  name: "AbortMultipartUpload",
  route: { names: "object", method: "DELETE", query: ["uploadId"] },
  profiled: "no",
  async handle(request, { store }) {
    const uploadId = uploadIdOf(request, "AbortMultipartUpload");
    await store.abortMultipartUpload(bucketOf(request), keyOf(request), uploadId);
    return { status: 204, headers: {} };
  },
};
