import { z } from "zod";
import { copyOperation } from "./copy.ts";
import { createBucketOperation } from "./create-bucket.ts";
import { deleteBucketOperation } from "./delete-bucket.ts";
import { deleteObjectsOperation } from "./delete-objects.ts";
import { deleteOperation } from "./delete.ts";
import { getOperation } from "./get.ts";
import { headOperation } from "./head.ts";
import { listBucketsOperation } from "./list-buckets.ts";
import { listOperation } from "./list.ts";
import { multipartOperation } from "./multipart.ts";
import type { OperationLabels } from "./operation-entry.ts";
import { putOperation } from "./put.ts";
import { uploadPartOperation } from "./upload-part.ts";

/** Object and bucket operations. Appended, never reordered: the results store keeps codes. */
export const OperationSchema = z.enum([
  "PUT",
  "GET",
  "DELETE",
  "HEAD",
  "COPY",
  "LIST",
  "MULTIPART",
  "CREATE_BUCKET",
  "DELETE_BUCKET",
  "LIST_BUCKETS",
  "DELETE_OBJECTS",
  "UPLOAD_PART",
]);
export type Operation = z.infer<typeof OperationSchema>;

/** Each operation's module by its name; the type checker refuses a name without one. */
export const OPERATION_ENTRIES = {
  PUT: putOperation,
  GET: getOperation,
  DELETE: deleteOperation,
  HEAD: headOperation,
  COPY: copyOperation,
  LIST: listOperation,
  MULTIPART: multipartOperation,
  CREATE_BUCKET: createBucketOperation,
  DELETE_BUCKET: deleteBucketOperation,
  LIST_BUCKETS: listBucketsOperation,
  DELETE_OBJECTS: deleteObjectsOperation,
  UPLOAD_PART: uploadPartOperation,
} as const satisfies { [Name in Operation]: { name: Name } };

export type OperationLanguage = keyof (typeof OPERATION_ENTRIES)[Operation]["labels"];

/** Every operation's label in one language and place, as a message catalogue holds them. */
export function operationLabels(
  language: OperationLanguage,
  place: keyof OperationLabels,
): Record<Operation, string> {
  return Object.fromEntries(
    OperationSchema.options.map((op) => [op, OPERATION_ENTRIES[op].labels[language][place]]),
  ) as Record<Operation, string>;
}
