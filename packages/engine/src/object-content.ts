import { createHash, randomFillSync } from "node:crypto";
import { piecesOf, updateInPieces } from "./transport/hash-in-pieces.ts";

/**
 * The bytes written for each key. Every object is a prefix of one random buffer, sized by
 * `sizeOf(key)`: without verification a PUT sends a view of that buffer (no copy on the hot
 * path); with verification each object carries its key number in its first bytes, so a server
 * that returns another object's bytes is caught, not just a wrong size.
 */
export interface ObjectContent {
  sizeOf(keyNumber: number): number;
  bodyFor(keyNumber: number): Uint8Array;
  expectationFor(keyNumber: number): { bytes: number; md5Hex: string };
  /** What a ranged GET of the object must return (bytes start … endInclusive). */
  expectationForRange(
    keyNumber: number,
    range: { start: number; endInclusive: number },
  ): { bytes: number; md5Hex: string };
}

const STAMP_BYTES = 8;

/** Random bytes in shared memory, made once per run point, so every worker writes the same data. */
export function createSharedContentBytes(sizeBytes: number): SharedArrayBuffer {
  const bytes = new SharedArrayBuffer(sizeBytes);
  for (const piece of piecesOf(new Uint8Array(bytes))) randomFillSync(piece);
  return bytes;
}

export function createObjectContent(
  sharedBytes: SharedArrayBuffer,
  distinctPerKey: boolean,
  sizeOf: (keyNumber: number) => number,
): ObjectContent {
  // A view, not a copy: a copy per worker held a 5 GiB object once more in each of them.
  const shared = Buffer.from(sharedBytes);
  const stampOf = (keyNumber: number): Buffer => {
    const stamp = Buffer.alloc(STAMP_BYTES);
    stamp.writeBigUInt64BE(BigInt(keyNumber));
    return stamp;
  };
  // A phase of one size sends one view, made once rather than per request (the last size's is
  // kept: a spread of sizes would only grow a table).
  let lastBody = shared.subarray(0, 0);
  const bodyFor = (keyNumber: number): Buffer => {
    const size = sizeOf(keyNumber);
    if (!distinctPerKey) {
      if (lastBody.length !== size) lastBody = shared.subarray(0, size);
      return lastBody;
    }
    const body = Buffer.from(shared.subarray(0, size));
    stampOf(keyNumber).copy(body, 0, 0, Math.min(STAMP_BYTES, size));
    return body;
  };
  // Bytes start … end - 1 of the key's object, hashed where they lie: a GET's expectation no
  // longer copies the whole object first.
  const md5Of = (keyNumber: number, start: number, end: number): string => {
    const hash = createHash("md5");
    const stamped = distinctPerKey ? Math.min(STAMP_BYTES, end) : 0;
    if (start < stamped) hash.update(stampOf(keyNumber).subarray(start, stamped));
    return updateInPieces(hash, shared.subarray(Math.max(start, stamped), end)).digest("hex");
  };
  // Without stamps, objects of one size are the same bytes: their checksum is worked out once.
  const sharedMd5BySize = new Map<number, string>();
  const expectationFor = (keyNumber: number) => {
    const size = sizeOf(keyNumber);
    if (distinctPerKey) return { bytes: size, md5Hex: md5Of(keyNumber, 0, size) };
    let md5 = sharedMd5BySize.get(size);
    if (md5 === undefined) {
      md5 = md5Of(keyNumber, 0, size);
      sharedMd5BySize.set(size, md5);
    }
    return { bytes: size, md5Hex: md5 };
  };
  return {
    sizeOf,
    bodyFor,
    expectationFor,
    expectationForRange(keyNumber, { start, endInclusive }) {
      const end = Math.min(endInclusive + 1, sizeOf(keyNumber));
      return { bytes: Math.max(0, end - start), md5Hex: md5Of(keyNumber, start, end) };
    },
  };
}
