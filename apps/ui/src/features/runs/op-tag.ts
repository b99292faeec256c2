import { OPERATION_ENTRIES, type Operation } from "@taillab/api";
import type { TFunction } from "i18next";

/**
 * An operation as a compact tag (a library row, a table cell): S3's own verbs, short and known in
 * every language, as their code; any other operation (`LIST_BUCKETS`, `MULTIPART`) in words of
 * the page's language.
 */
export function opTag(op: Operation, t: TFunction<"runs">): string {
  return OPERATION_ENTRIES[op].shownAsVerb ? op : t(`ops.${op}`);
}
