import { isValidBucketName } from "../bucket-name.ts";
import { S3Error } from "../s3-error.ts";
import { bucketOf } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const createBucketOperation: TestbedOperation<"CreateBucket"> = {
  name: "CreateBucket",
  route: { names: "bucket", method: "PUT" },
  profiled: "no",
  async handle(request, { store }) {
    const bucket = bucketOf(request);
    if (!isValidBucketName(bucket)) {
      throw new S3Error("InvalidBucketName", `The specified bucket is not valid: ${bucket}`);
    }
    // A CreateBucketConfiguration may come along; its location constraint does not matter here.
    await request.readBody();
    if (!(await store.createBucket(bucket))) {
      throw new S3Error(
        "BucketAlreadyOwnedByYou",
        `Your previous request to create the named bucket succeeded and you already own it: ${bucket}`,
      );
    }
    return { status: 200, headers: { Location: `/${bucket}` } };
  },
};
