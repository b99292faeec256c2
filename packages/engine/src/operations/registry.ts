import type { Operation } from "@taillab/api";
import { copyOperation } from "./copy.ts";
import { createBucketOperation } from "./create-bucket.ts";
import { deleteBucketOperation } from "./delete-bucket.ts";
import { deleteObjectsOperation } from "./delete-objects.ts";
import { deleteOperation } from "./delete.ts";
import type { EngineOperation } from "./engine-operation.ts";
import { getOperation } from "./get.ts";
import { headOperation } from "./head.ts";
import { listBucketsOperation } from "./list-buckets.ts";
import { listOperation } from "./list.ts";
import { multipartOperation } from "./multipart.ts";
import { putOperation } from "./put.ts";
import { uploadPartOperation } from "./upload-part.ts";

/** Each operation's engine module by its name; the type checker refuses a name without one. */
export const ENGINE_OPERATIONS = {
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
} as const satisfies { [Name in Operation]: EngineOperation<Name> };

type MethodsOf<Entry> = Entry extends EngineOperation<Operation, infer Methods> ? Methods : never;
type IntersectionOf<Union> = (Union extends unknown ? (part: Union) => void : never) extends (
  whole: infer Whole,
) => void
  ? Whole
  : never;

/** Every operation's transport methods together: a transport is these and `close`. */
export type OperationMethods = IntersectionOf<
  MethodsOf<(typeof ENGINE_OPERATIONS)[keyof typeof ENGINE_OPERATIONS]>
>;

/** A transport's methods, each operation's made by `methodsOf` (its `fast` or its `sdk`). */
export function operationMethods(
  methodsOf: (operation: EngineOperation<Operation, object>) => object,
): OperationMethods {
  const methods = {};
  for (const operation of Object.values(ENGINE_OPERATIONS)) {
    Object.assign(methods, methodsOf(operation as EngineOperation<Operation, object>));
  }
  return methods as OperationMethods;
}
