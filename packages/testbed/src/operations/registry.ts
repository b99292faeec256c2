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

/**
 * Each S3 operation's handler, in the order the router walks their routes: when a request carries
 * two routes' query parameters (`?uploads&location`), the first listed wins.
 */
export const ROUTED_OPERATIONS = [
  listBucketsOperation,
  createBucketOperation,
  headBucketOperation,
  deleteBucketOperation,
  listMultipartUploadsOperation,
  getBucketLocationOperation,
  listObjectsOperation,
  listObjectsV2Operation,
  deleteObjectsOperation,
  putObjectOperation,
  copyObjectOperation,
  getObjectOperation,
  headObjectOperation,
  deleteObjectOperation,
  createMultipartUploadOperation,
  uploadPartOperation,
  completeMultipartUploadOperation,
  abortMultipartUploadOperation,
  listPartsOperation,
] as const satisfies readonly TestbedOperation[];

/** The S3 operations the testbed serves, by S3's names for them. */
export type S3Operation = (typeof ROUTED_OPERATIONS)[number]["name"];

const OPERATION_BY_NAME = Object.fromEntries(
  ROUTED_OPERATIONS.map((operation) => [operation.name, operation]),
) as Record<S3Operation, TestbedOperation>;

function operationsProfiled(how: readonly TestbedOperation["profiled"][]): Set<S3Operation> {
  return new Set(
    ROUTED_OPERATIONS.flatMap((operation) =>
      how.includes(operation.profiled) ? [operation.name] : [],
    ),
  );
}

/** The data plane, the requests a latency profile shapes (see TestbedOperation.profiled). */
export const PROFILED_OPERATIONS: ReadonlySet<S3Operation> = operationsProfiled([
  "timing",
  "timing-and-body",
]);

/** The requests whose body a latency profile may corrupt: those answered with an object's data. */
export const BODY_PROFILED_OPERATIONS: ReadonlySet<S3Operation> = operationsProfiled([
  "timing-and-body",
]);

export function runOperation(
  operation: S3Operation,
  request: OperationRequest,
  context: OperationContext,
): Promise<S3Response> {
  return OPERATION_BY_NAME[operation].handle(request, context);
}
