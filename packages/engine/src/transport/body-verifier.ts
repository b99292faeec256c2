import { createHash, type Hash } from "node:crypto";
import type { GetExpectation } from "./object-transport.ts";

/** Hashes a GET body chunk by chunk (no buffering of the whole object) and checks size + MD5. */
export interface BodyVerifier {
  update(chunk: Uint8Array): void;
  /** True when the bytes seen so far are exactly the expected object. */
  matches(receivedBytes: number): boolean;
}

export function createBodyVerifier(expect: GetExpectation): BodyVerifier {
  const hash: Hash = createHash("md5");
  return {
    update: (chunk) => {
      hash.update(chunk);
    },
    matches: (receivedBytes) =>
      receivedBytes === expect.bytes && hash.digest("hex") === expect.md5Hex.toLowerCase(),
  };
}
