/**
 * The single-range subset of HTTP Range that S3 supports. Like S3, a header that does not parse
 * (other units, several ranges, last < first) is ignored and the whole object is returned.
 */
export type ByteRange =
  { kind: "whole" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

const SINGLE_BYTE_RANGE = /^bytes=(\d*)-(\d*)$/;
const WHOLE: ByteRange = { kind: "whole" };
const UNSATISFIABLE: ByteRange = { kind: "unsatisfiable" };

/** `end` is inclusive, as in Content-Range. */
export function parseRange(header: string | undefined, sizeBytes: number): ByteRange {
  if (header === undefined) return WHOLE;
  const match = SINGLE_BYTE_RANGE.exec(header.trim());
  if (!match) return WHOLE;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return WHOLE;
  if (first === "") {
    const suffixLength = Number(last);
    if (suffixLength === 0 || sizeBytes === 0) return UNSATISFIABLE;
    return { kind: "partial", start: Math.max(0, sizeBytes - suffixLength), end: sizeBytes - 1 };
  }
  const start = Number(first);
  const end = last === "" ? Infinity : Number(last);
  if (end < start) return WHOLE;
  if (start >= sizeBytes) return UNSATISFIABLE;
  return { kind: "partial", start, end: Math.min(end, sizeBytes - 1) };
}
