import { createHash } from "node:crypto";
import type { GetOptions } from "./object-transport.ts";

/**
 * What both transports do with a GET body: count it (partial bytes stay counted if the body
 * fails) and, when asked, hash it chunk by chunk (no buffering of the whole object), then judge
 * it: a ranged GET answered in full is "RangeIgnored", wrong size or MD5 is "ContentMismatch".
 */
export interface GetBodyCheck {
  onChunk(chunk: Uint8Array): void;
  readonly bytes: number;
  /** The error code for a 2xx answer with this body, or null when it is right. */
  verdict(status: number): string | null;
}

export function createGetBodyCheck({ expect, range }: Pick<GetOptions, "expect" | "range">) {
  const hash = expect ? createHash("md5") : null;
  let bytes = 0;
  const check: GetBodyCheck = {
    onChunk(chunk) {
      bytes += chunk.length;
      hash?.update(chunk);
    },
    get bytes() {
      return bytes;
    },
    verdict(status) {
      if (range && status !== 206) return "RangeIgnored";
      if (!expect || !hash) return null;
      const matches = bytes === expect.bytes && hash.digest("hex") === expect.md5Hex.toLowerCase();
      return matches ? null : "ContentMismatch";
    },
  };
  return check;
}
