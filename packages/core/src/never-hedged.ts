import { OPERATION_ENTRIES, OperationSchema, type Operation, type RequestMode } from "@taillab/api";

/** Never sent as backups: those whose module says a second copy is not harmless. */
export const NEVER_HEDGED: ReadonlySet<Operation> = new Set(
  OperationSchema.options.filter((op) => !OPERATION_ENTRIES[op].backupsHarmless),
);

/** Whether an operation gets backups in a request mode: the engine's rule and the store's. */
export function sendsBackups(mode: RequestMode, op: Operation): boolean {
  return mode !== "normal" && !NEVER_HEDGED.has(op);
}
