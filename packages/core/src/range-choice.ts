import { coded, parseByteSize } from "@taillab/api";
import type { Random } from "./random.ts";
import { formatExactByteSize } from "./size-distribution.ts";
import { uniformInt } from "./uniform-draw.ts";
import { itemProblem, parseFailure, type TextParseResult } from "./workload-text.ts";

/**
 * Which bytes a ranged GET asks for.
 * - fixed: `lengthBytes` bytes from `offsetBytes`.
 * - random: `lengthBytes` bytes from an offset drawn uniformly among those where the range fits
 *   inside the object, and that are multiples of `alignBytes` (1: any byte).
 *
 * Every range lies inside the object and is min(lengthBytes, object size) long, so each request
 * moves the same number of bytes whatever the object: a length longer than the object is cut to
 * the object, and a fixed offset too close to the end moves back just far enough for the range
 * to fit (S3 would answer a range that starts past the end with 416 InvalidRange).
 */
export type RangeChoice =
  | { kind: "fixed"; offsetBytes: number; lengthBytes: number }
  | { kind: "random"; lengthBytes: number; alignBytes: number };

/** The bytes of one `Range: bytes=start-endInclusive` header. */
export interface ByteRange {
  start: number;
  endInclusive: number;
}

type RangePart = "rangeOffset" | "rangeLength" | "rangeAlignment";

function parseSizePart(text: string, what: RangePart, whole: string): TextParseResult<number> {
  const parsed = parseByteSize(text);
  return parsed.ok
    ? { ok: true, value: parsed.bytes }
    : parseFailure(itemProblem(whole, coded(what, { problem: parsed.reason })));
}

/** An offset may be 0, which `parseByteSize` (sizes are at least 1 byte) refuses. */
function parseOffset(text: string, whole: string): TextParseResult<number> {
  if (/^\s*0+\s*b?\s*$/i.test(text)) return { ok: true, value: 0 };
  return parseSizePart(text, "rangeOffset", whole);
}

/** `fixed:0:1MiB` (offset:length), `random:1MiB` (length), `random:1MiB:4KiB` (length:alignment). */
export function parseRangeChoice(text: string): TextParseResult<RangeChoice> {
  const trimmed = text.trim();
  const [kindText = "", ...parts] = trimmed.split(":");
  const kind = kindText.trim().toLowerCase();
  if (kind === "fixed") {
    if (parts.length !== 2) return parseFailure(itemProblem(trimmed, coded("rangeExpected")));
    const offset = parseOffset(parts[0] as string, trimmed);
    if (!offset.ok) return offset;
    const length = parseSizePart(parts[1] as string, "rangeLength", trimmed);
    if (!length.ok) return length;
    return {
      ok: true,
      value: { kind: "fixed", offsetBytes: offset.value, lengthBytes: length.value },
    };
  }
  if (kind === "random") {
    if (parts.length !== 1 && parts.length !== 2) {
      return parseFailure(itemProblem(trimmed, coded("rangeExpected")));
    }
    const length = parseSizePart(parts[0] as string, "rangeLength", trimmed);
    if (!length.ok) return length;
    const align =
      parts.length === 2 ? parseSizePart(parts[1] as string, "rangeAlignment", trimmed) : null;
    if (align && !align.ok) return align;
    return {
      ok: true,
      value: { kind: "random", lengthBytes: length.value, alignBytes: align ? align.value : 1 },
    };
  }
  return parseFailure(itemProblem(trimmed, coded("rangeUnknown")));
}

/** Text that `parseRangeChoice` reads back as the same choice. */
export function formatRangeChoice(choice: RangeChoice): string {
  const size = formatExactByteSize;
  if (choice.kind === "fixed") {
    const offset = choice.offsetBytes === 0 ? "0" : size(choice.offsetBytes);
    return `fixed:${offset}:${size(choice.lengthBytes)}`;
  }
  return choice.alignBytes === 1
    ? `random:${size(choice.lengthBytes)}`
    : `random:${size(choice.lengthBytes)}:${size(choice.alignBytes)}`;
}

/** `bytes=0-1048575`: the value of the Range header. */
export function rangeHeaderValue(range: ByteRange): string {
  return `bytes=${range.start}-${range.endInclusive}`;
}

export interface RangeChooser {
  nextRange(objectSizeBytes: number): ByteRange;
}

export function createRangeChooser(choice: RangeChoice, random: Random): RangeChooser {
  checkChoice(choice);
  return {
    nextRange(objectSizeBytes) {
      if (!Number.isSafeInteger(objectSizeBytes) || objectSizeBytes < 1) {
        throw new RangeError(
          `a range needs an object of at least 1 byte, got ${objectSizeBytes} bytes`,
        );
      }
      const lengthBytes = Math.min(choice.lengthBytes, objectSizeBytes);
      const lastStart = objectSizeBytes - lengthBytes;
      const start =
        choice.kind === "fixed"
          ? Math.min(choice.offsetBytes, lastStart)
          : choice.alignBytes * uniformInt(random, Math.floor(lastStart / choice.alignBytes) + 1);
      return { start, endInclusive: start + lengthBytes - 1 };
    },
  };
}

function checkChoice(choice: RangeChoice): void {
  const isCount = (value: number, least: number) => Number.isSafeInteger(value) && value >= least;
  const valid =
    choice.kind === "fixed"
      ? isCount(choice.offsetBytes, 0) && isCount(choice.lengthBytes, 1)
      : isCount(choice.lengthBytes, 1) && isCount(choice.alignBytes, 1);
  if (!valid) {
    throw new RangeError(
      `a range needs whole byte counts (offset at least 0, length and alignment at least 1), got ${JSON.stringify(choice)}`,
    );
  }
}
