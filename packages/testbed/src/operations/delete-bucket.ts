import { bucketOf } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const deleteBucketOperation: TestbedOperation<"DeleteBucket"> = {
  name: "DeleteBucket",
  route: { names: "bucket", method: "DELETE" },
  profiled: "no",
  async handle(request, { store }) {
    await store.deleteBucket(bucketOf(request));
    return { status: 204, headers: {} };
  },
};
