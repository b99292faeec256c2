import { escapeXml } from "@taillab/core";
import { noSuchBucket } from "../s3-error.ts";
import { s3Document } from "../s3-xml.ts";
import { bucketOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

function bucketLocationXml(region: string): string {
  // S3 reports the original region, us-east-1, as an empty constraint.
  return s3Document("LocationConstraint", region === "us-east-1" ? "" : escapeXml(region));
}

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
