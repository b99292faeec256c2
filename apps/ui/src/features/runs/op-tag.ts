import type { Operation } from "@taillab/api";
import type { TFunction } from "i18next";

/** S3's own verbs, short and known in every language: shown as they are. */
const S3_VERBS: ReadonlySet<Operation> = new Set(["PUT", "GET", "HEAD", "DELETE", "COPY", "LIST"]);

/**
 * An operation as a compact tag (a library row, a table cell): a verb as its code, any other
 * operation (`LIST_BUCKETS`, `MULTIPART`) in words of the page's language.
 */
export function opTag(op: Operation, t: TFunction<"runs">): string {
  return S3_VERBS.has(op) ? op : t(`ops.${op}`);
}
