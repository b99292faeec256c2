import { createHash, randomFillSync } from "node:crypto";

/**
 * The bytes written for each key. Without verification every PUT sends one shared buffer (no
 * copy on the hot path). With verification each object carries its key number in its first
 * bytes, so a server that returns another object's bytes is caught, not just a wrong size.
 */
export interface ObjectContent {
  sizeBytes: number;
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
): ObjectContent {
  // A private copy: sockets write ordinary buffers, and the copy is made once per point.
  const shared = Buffer.from(new Uint8Array(sharedBytes));
  const sizeBytes = shared.length;
  const sharedMd5 = md5Hex(shared);
  const stamped = (keyNumber: number): Buffer => {
    const body = Buffer.from(shared);
    const stamp = Buffer.alloc(STAMP_BYTES);
    stamp.writeBigUInt64BE(BigInt(keyNumber));
    stamp.copy(body, 0, 0, Math.min(STAMP_BYTES, sizeBytes));
    return body;
  };
  const expectationForRange = (
    keyNumber: number,
    { start, endInclusive }: { start: number; endInclusive: number },
  ) => {
    const slice = (distinctPerKey ? stamped(keyNumber) : shared).subarray(start, endInclusive + 1);
    return { bytes: slice.length, md5Hex: md5Hex(slice) };
  };
  if (!distinctPerKey) {
    return {
      expectationForRange,
      sizeBytes,
      bodyFor: () => shared,
      expectationFor: () => ({ bytes: sizeBytes, md5Hex: sharedMd5 }),
    };
  }
  return {
    expectationForRange,
    sizeBytes,
    bodyFor: stamped,
    expectationFor: (keyNumber) => ({ bytes: sizeBytes, md5Hex: md5Hex(stamped(keyNumber)) }),
  };
}

function md5Hex(data: Uint8Array): string {
  return createHash("md5").update(data).digest("hex");
}
