import { OPERATION_ENTRIES, OperationSchema } from "@taillab/api";

/** s3bench's word for an operation's name (`GET` → `Read`); an unknown name as it is. */
export function operationWord(op: string): string {
  const known = OperationSchema.safeParse(op);
  return known.success ? OPERATION_ENTRIES[known.data].s3benchWord : op;
}
