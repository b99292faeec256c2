import type { Operation } from "@taillab/api";

/**
 * Never sent as backups: a second DELETE, multipart upload or bucket change is not harmless.
 */
export const NEVER_HEDGED: ReadonlySet<Operation> = new Set([
  "DELETE",
  "MULTIPART",
  "CREATE_BUCKET",
  "DELETE_BUCKET",
  "DELETE_OBJECTS",
  "UPLOAD_PART",
]);
