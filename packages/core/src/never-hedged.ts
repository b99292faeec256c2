import type { Operation, RequestMode } from "@taillab/api";

/**
 * Never sent as backups: a second DELETE or bucket change is not harmless. (PUT and multipart
 * uploads may be: the same bytes to the same key leave the same object, whichever lands last.)
 */
export const NEVER_HEDGED: ReadonlySet<Operation> = new Set([
  "DELETE",
  "CREATE_BUCKET",
  "DELETE_BUCKET",
  "DELETE_OBJECTS",
  "UPLOAD_PART",
]);

/** Whether an operation gets backups in a request mode: the engine's rule and the store's. */
export function sendsBackups(mode: RequestMode, op: Operation): boolean {
  return mode !== "normal" && !NEVER_HEDGED.has(op);
}
