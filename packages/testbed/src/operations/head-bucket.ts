import { noSuchBucket } from "../s3-error.ts";
import { bucketOf } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const headBucketOperation: TestbedOperation<"HeadBucket"> = {
  name: "HeadBucket",
  route: { names: "bucket", method: "HEAD" },
  profiled: "no",
  async handle(request, { store, region }) {
    const bucket = bucketOf(request);
    if (!(await store.hasBucket(bucket))) throw noSuchBucket(bucket);
    return { status: 200, headers: { "x-amz-bucket-region": region } };
  },
};
