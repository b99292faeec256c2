import { noSuchBucket } from "../s3-error.ts";
import { bucketLocationXml } from "../s3-xml.ts";
import { bucketOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const getBucketLocationOperation: TestbedOperation<"GetBucketLocation"> = {
  name: "GetBucketLocation",
  route: { names: "bucket", method: "GET", query: ["location"] },
  profiled: "no",
  async handle(request, { store, region }) {
    const bucket = bucketOf(request);
    if (!(await store.hasBucket(bucket))) throw noSuchBucket(bucket);
    return xml(bucketLocationXml(region));
  },
};
