import type { Operation } from "@taillab/api";

/** The words s3bench uses for each operation. */
const OPERATION_WORD: Record<Operation, string> = {
  PUT: "Write",
  GET: "Read",
  DELETE: "Delete",
  HEAD: "Head",
  COPY: "Copy",
  LIST: "List",
  MULTIPART: "Multipart upload",
  CREATE_BUCKET: "Create bucket",
  DELETE_BUCKET: "Delete bucket",
  LIST_BUCKETS: "List buckets",
  DELETE_OBJECTS: "Delete objects (batch)",
  UPLOAD_PART: "Upload part",
};

/** s3bench's word for an operation's name (`GET` → `Read`); an unknown name as it is. */
export function operationWord(op: string): string {
  return op in OPERATION_WORD ? OPERATION_WORD[op as Operation] : op;
}
