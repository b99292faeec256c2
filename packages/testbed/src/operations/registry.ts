import type { S3Operation } from "../s3-route.ts";
import { abortMultipartUploadOperation } from "./abort-multipart-upload.ts";
import { completeMultipartUploadOperation } from "./complete-multipart-upload.ts";
import { copyObjectOperation } from "./copy-object.ts";
import { createBucketOperation } from "./create-bucket.ts";
import { createMultipartUploadOperation } from "./create-multipart-upload.ts";
import { deleteBucketOperation } from "./delete-bucket.ts";
import { deleteObjectOperation } from "./delete-object.ts";
import { deleteObjectsOperation } from "./delete-objects.ts";
import { getBucketLocationOperation } from "./get-bucket-location.ts";
import { getObjectOperation } from "./get-object.ts";
import { headBucketOperation } from "./head-bucket.ts";
import { headObjectOperation } from "./head-object.ts";
import { listBucketsOperation } from "./list-buckets.ts";
import { listMultipartUploadsOperation } from "./list-multipart-uploads.ts";
import { listObjectsOperation } from "./list-objects-v1.ts";
import { listObjectsV2Operation } from "./list-objects-v2.ts";
import { listPartsOperation } from "./list-parts.ts";
import { putObjectOperation } from "./put-object.ts";
import { uploadPartOperation } from "./upload-part.ts";
import type {
  OperationContext,
  OperationRequest,
  S3Response,
  TestbedOperation,
} from "./testbed-operation.ts";

/** Each S3 operation's handler by its name; the type checker refuses a name without one. */
const TESTBED_OPERATIONS = {
  ListBuckets: listBucketsOperation,
  CreateBucket: createBucketOperation,
  HeadBucket: headBucketOperation,
  DeleteBucket: deleteBucketOperation,
  GetBucketLocation: getBucketLocationOperation,
  ListObjects: listObjectsOperation,
  ListObjectsV2: listObjectsV2Operation,
  DeleteObjects: deleteObjectsOperation,
  PutObject: putObjectOperation,
  CopyObject: copyObjectOperation,
  GetObject: getObjectOperation,
  HeadObject: headObjectOperation,
  DeleteObject: deleteObjectOperation,
  CreateMultipartUpload: createMultipartUploadOperation,
  UploadPart: uploadPartOperation,
  CompleteMultipartUpload: completeMultipartUploadOperation,
  AbortMultipartUpload: abortMultipartUploadOperation,
  ListParts: listPartsOperation,
  ListMultipartUploads: listMultipartUploadsOperation,
} as const satisfies { [Name in S3Operation]: TestbedOperation<Name> };

export function runOperation(
  operation: S3Operation,
  request: OperationRequest,
  context: OperationContext,
): Promise<S3Response> {
  return TESTBED_OPERATIONS[operation].handle(request, context);
}
