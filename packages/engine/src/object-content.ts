import { createHash, randomFillSync } from "node:crypto";

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
  randomFillSync(new Uint8Array(bytes));
  return bytes;
}

export function createObjectContent(
  sharedBytes: SharedArrayBuffer,
  distinctPerKey: boolean,
  sizeOf: (keyNumber: number) => number,
): ObjectContent {
  // A private copy: sockets write ordinary buffers, and the copy is made once per point.
  const shared = Buffer.from(new Uint8Array(sharedBytes));
  const bodyFor = (keyNumber: number): Buffer => {
    const size = sizeOf(keyNumber);
    if (!distinctPerKey) return shared.subarray(0, size);
    const body = Buffer.from(shared.subarray(0, size));
    const stamp = Buffer.alloc(STAMP_BYTES);
    stamp.writeBigUInt64BE(BigInt(keyNumber));
    stamp.copy(body, 0, 0, Math.min(STAMP_BYTES, size));
    return body;
  };
  // Without stamps, objects of one size are the same bytes: their checksum is worked out once.
  const sharedMd5BySize = new Map<number, string>();
  const expectationFor = (keyNumber: number) => {
    const size = sizeOf(keyNumber);
    if (distinctPerKey) return { bytes: size, md5Hex: md5Hex(bodyFor(keyNumber)) };
    let md5 = sharedMd5BySize.get(size);
    if (md5 === undefined) {
      md5 = md5Hex(shared.subarray(0, size));
      sharedMd5BySize.set(size, md5);
    }
    return { bytes: size, md5Hex: md5 };
  };
  return {
    sizeOf,
    bodyFor,
    expectationFor,
    expectationForRange(keyNumber, { start, endInclusive }) {
      const slice = bodyFor(keyNumber).subarray(start, endInclusive + 1);
      return { bytes: slice.length, md5Hex: md5Hex(slice) };
    },
  };
}

function md5Hex(data: Uint8Array): string {
  return createHash("md5").update(data).digest("hex");
}
