import { createHash, type Hash } from "node:crypto";
import type { GetOptions } from "./object-transport.ts";

/**
 * What both transports do with a GET body: count it (partial bytes stay counted if the body
 * fails) and, when asked, hash it chunk by chunk (no buffering of the whole object), then judge
 * it: a ranged GET answered in full is "RangeIgnored", wrong size or MD5 is "ContentMismatch".
 * A class rather than closures: one is made per GET.
 */
export class GetBodyCheck {
  /** Body bytes received so far. */
  bytes = 0;
  private readonly hash: Hash | null;
  private readonly expect: GetOptions["expect"];
  private readonly range: GetOptions["range"];

  constructor({ expect, range }: Pick<GetOptions, "expect" | "range">) {
    this.expect = expect;
    this.range = range;
    this.hash = expect ? createHash("md5") : null;
  }

  onChunk(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    this.hash?.update(chunk);
  }

  /** The error code for a 2xx answer with this body, or null when it is right. */
  verdict(status: number): string | null {
    const { expect, hash } = this;
    if (this.range && status !== 206) return "RangeIgnored";
    if (!expect || !hash) return null;
    const matches =
      this.bytes === expect.bytes && hash.digest("hex") === expect.md5Hex.toLowerCase();
    return matches ? null : "ContentMismatch";
  }
}

export function createGetBodyCheck(options: Pick<GetOptions, "expect" | "range">): GetBodyCheck {
  return new GetBodyCheck(options);
}
