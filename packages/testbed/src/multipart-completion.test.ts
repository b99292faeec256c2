import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { multipartEtag, planCompletion, type CompletedPart } from "./multipart-completion.ts";
import type { PartMetadata } from "./upload-index.ts";

const md5 = (text: string) => createHash("md5").update(text).digest();
const etagOf = (text: string) => `"${md5(text).toString("hex")}"`;

function storedParts(...sizes: number[]): Map<number, PartMetadata> {
  return new Map(
    sizes.map((sizeBytes, i) => [
      i + 1,
      { partNumber: i + 1, etag: etagOf(`part ${i + 1}`), sizeBytes, lastModified: new Date(0) },
    ]),
  );
}

const listed = (...partNumbers: number[]): CompletedPart[] =>
  partNumbers.map((partNumber) => ({ partNumber, etag: etagOf(`part ${partNumber}`) }));

describe("multipartEtag", () => {
  it("is the MD5 of the parts' binary MD5s, then the part count", () => {
    const expected = createHash("md5")
      .update(Buffer.concat([md5("a"), md5("b"), md5("c")]))
      .digest("hex");
    expect(multipartEtag([etagOf("a"), etagOf("b"), etagOf("c")])).toBe(`"${expected}-3"`);
  });

  it("reads part ETags with or without quotes", () => {
    expect(multipartEtag([md5("a").toString("hex")])).toBe(multipartEtag([etagOf("a")]));
  });
});

describe("planCompletion", () => {
  const minPartSizeBytes = 100;

  it("takes the listed parts in order, their total size and the multipart ETag", () => {
    const stored = storedParts(100, 100, 7);
    expect(planCompletion(stored, listed(1, 2, 3), minPartSizeBytes)).toEqual({
      partNumbers: [1, 2, 3],
      sizeBytes: 207,
      etag: multipartEtag([etagOf("part 1"), etagOf("part 2"), etagOf("part 3")]),
    });
  });

  it.each<[string, number[], CompletedPart[]]>([
    ["a single small part", [1], listed(1)],
    ["parts with gaps, leaving some out", [100, 1, 100, 1], listed(1, 3, 4)],
    ["ETags without quotes", [100, 5], [{ partNumber: 1, etag: md5("part 1").toString("hex") }]],
    ["upper-case ETags", [100, 5], [{ partNumber: 1, etag: etagOf("part 1").toUpperCase() }]],
  ])("accepts %s", (_name, sizes, requested) => {
    expect(() => planCompletion(storedParts(...sizes), requested, minPartSizeBytes)).not.toThrow();
  });

  it.each<[string, number[], CompletedPart[], string]>([
    ["parts out of order", [100, 100], listed(2, 1), "InvalidPartOrder"],
    ["a part listed twice", [100, 100], listed(1, 1, 2), "InvalidPartOrder"],
    ["a part never uploaded", [100, 100], listed(1, 3), "InvalidPart"],
    [
      "a wrong ETag",
      [100, 100],
      [listed(1)[0] as CompletedPart, { partNumber: 2, etag: etagOf("other") }],
      "InvalidPart",
    ],
    ["a small part before the last", [100, 99, 100], listed(1, 2, 3), "EntityTooSmall"],
    ["a small first part", [99, 100], listed(1, 2), "EntityTooSmall"],
  ])("refuses %s", (_name, sizes, requested, code) => {
    expect(() => planCompletion(storedParts(...sizes), requested, minPartSizeBytes)).toThrow(
      expect.objectContaining({ code }),
    );
  });

  it("names the part and the minimum when a part is too small", () => {
    expect(() => planCompletion(storedParts(1024, 5), listed(1, 2), 5 * 1024 * 1024)).toThrow(
      /part 1 is 1024 bytes.*at least 5242880 bytes \(5 MiB\)/,
    );
  });
});
