import { createHash, hash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createObjectContent, createSharedContentBytes } from "./object-content.ts";

const md5Hex = (data: Uint8Array) => createHash("md5").update(data).digest("hex");
const SIZES = [0, 1, 7, 8, 9, 1000];

describe("object content: what a GET must return is what the PUT sent", () => {
  const shared = createSharedContentBytes(1000);
  it.each([
    ["stamped per key (verify)", true],
    ["one shared buffer", false],
  ])("%s: whole objects and ranges", (_name, distinct) => {
    for (const size of SIZES) {
      const content = createObjectContent(shared, distinct, () => size);
      for (const key of [0, 5, 2 ** 40]) {
        const body = content.bodyFor(key);
        expect(body.length).toBe(size);
        expect(content.expectationFor(key)).toEqual({ bytes: size, md5Hex: md5Hex(body) });
        for (const [start, endInclusive] of [
          [0, 0],
          [3, 11],
          [8, 999],
          [990, 2000],
          [1500, 1600],
        ] as const) {
          const slice = body.subarray(start, endInclusive + 1);
          expect(content.expectationForRange(key, { start, endInclusive })).toEqual({
            bytes: slice.length,
            md5Hex: md5Hex(slice),
          });
        }
      }
    }
  });

  it("stamped objects of two keys differ only in their stamp", () => {
    const content = createObjectContent(shared, true, () => 1000);
    const [a, b] = [content.bodyFor(1), content.bodyFor(2)];
    expect(a.subarray(8)).toEqual(b.subarray(8));
    expect(a.subarray(0, 8)).not.toEqual(b.subarray(0, 8));
  });

  it("PUT bodies are views of the shared bytes, not a worker's copy", () => {
    const content = createObjectContent(shared, false, () => 1000);
    expect(content.bodyFor(0).buffer).toBe(shared);
  });
});

describe("objects past what Node's crypto takes in one call", () => {
  // Hash.update throws from 2 GiB: a verified GET of such an object failed its worker.
  it("an object of 2 GiB + 1 byte: random to its end, and its checksum right", () => {
    const size = 2 ** 31 + 1;
    const shared = createSharedContentBytes(size);
    const bytes = new Uint8Array(shared);
    for (const end of [2 ** 30, 2 ** 31, size]) {
      expect(bytes.subarray(end - 16, end).some((byte) => byte !== 0)).toBe(true);
    }
    const content = createObjectContent(shared, false, () => size);
    // crypto.hash takes the whole buffer in one call: an oracle the pieces must agree with.
    expect(content.expectationFor(0)).toEqual({ bytes: size, md5Hex: hash("md5", bytes, "hex") });
  });
});
