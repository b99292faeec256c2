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
import type { MixPlanning, OperationLabels } from "./operation-entry.ts";
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

/**
 * Each operation's module by its name; the type checker refuses a name without one. In the order
 * a mix's words are listed to a person.
 */
export const OPERATION_ENTRIES = {
  PUT: putOperation,
  GET: getOperation,
  HEAD: headOperation,
  DELETE: deleteOperation,
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

/** The words a workload's mix names its operations by (`get`, `delete-objects`…). */
export type MixWord = Exclude<(typeof OPERATION_ENTRIES)[Operation]["mixWord"], null>;

/** Every mix word, in the registry's order. */
export const MIX_WORDS: readonly MixWord[] = Object.values(OPERATION_ENTRIES).flatMap((entry) =>
  entry.mixWord === null ? [] : [entry.mixWord],
);

const OPERATION_BY_MIX_WORD: ReadonlyMap<string, Operation> = new Map(
  Object.values(OPERATION_ENTRIES).map((entry) => [entry.mixWord ?? "", entry.name]),
);

/** The operation a mix word names (a planner asks once per request: a map, not a search). */
export function operationOfMixWord(word: MixWord): Operation {
  const op = OPERATION_BY_MIX_WORD.get(word);
  if (op === undefined) throw new RangeError(`unknown mix word "${word}"`);
  return op;
}

/** How a mix plans a request of the operation a mix word names. */
export function mixPlanningOf(word: MixWord): MixPlanning {
  const planning = OPERATION_ENTRIES[operationOfMixWord(word)].mixPlanning;
  if (planning === null) throw new RangeError(`mix word "${word}" names no planning`);
  return planning;
}

/** Operations whose success leaves an object at the request's key. */
export const OBJECT_WRITES: ReadonlySet<Operation> = new Set(
  OperationSchema.options.filter((op) => OPERATION_ENTRIES[op].writesObject),
);

/** Operations sent as parts of another (a multipart upload's), not handed out as requests. */
export const PART_OPERATIONS: ReadonlySet<Operation> = new Set(
  Object.values(OPERATION_ENTRIES).flatMap((entry) =>
    entry.partOperation === null ? [] : [entry.partOperation],
  ),
);
