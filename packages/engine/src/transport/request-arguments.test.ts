import { describe, expect, it } from "vitest";
import {
  assertCompletedParts,
  assertDeleteKeys,
  assertMaxKeys,
  assertPartNumber,
  completeMultipartUploadXml,
  createBucketXml,
  deleteObjectsXml,
  rangeHeaderValue,
} from "./request-arguments.ts";
import { copySourceHeaderValue } from "../operations/copy.ts";

describe("rangeHeaderValue", () => {
  it.each([
    [{ start: 0, endInclusive: 0 }, "bytes=0-0"],
    [{ start: 1024, endInclusive: 2047 }, "bytes=1024-2047"],
  ])("%j → %s", (range, header) => {
    expect(rangeHeaderValue(range)).toBe(header);
  });
  it.each([
    [{ start: -1, endInclusive: 3 }, /invalid/],
    [{ start: 1.5, endInclusive: 3 }, /invalid/],
    [{ start: 5, endInclusive: 4 }, /ends before it starts/],
  ])("%j throws", (range, message) => {
    expect(() => rangeHeaderValue(range)).toThrow(message);
  });
});

describe("argument checks", () => {
  it.each([0, 10_001, 1.5])("part number %d throws", (partNumber) => {
    expect(() => assertPartNumber(partNumber)).toThrow(/part number/);
  });
  it("part numbers 1 and 10 000 pass", () => {
    expect(() => assertPartNumber(1)).not.toThrow();
    expect(() => assertPartNumber(10_000)).not.toThrow();
  });
  it("complete needs parts", () => {
    expect(() => assertCompletedParts([])).toThrow(/at least one part/);
  });
  it.each([[[]], [Array.from({ length: 1001 }, (_, i) => `k${i}`)], [["a", ""]]])(
    "DeleteObjects keys, case %#, throw",
    (keys) => {
      expect(() => assertDeleteKeys(keys)).toThrow();
    },
  );
  it.each([-1, 2.5])("maxKeys %d throws", (maxKeys) => {
    expect(() => assertMaxKeys(maxKeys)).toThrow(/maxKeys/);
  });
});

describe("wire forms", () => {
  it("copy source: /bucket/key with the key encoded per segment", () => {
    expect(copySourceHeaderValue("b", "dir one/a+b~é")).toBe("/b/dir%20one/a%2Bb~%C3%A9");
  });

  it("CompleteMultipartUpload body escapes the ETags' quotes", () => {
    expect(
      completeMultipartUploadXml([
        { partNumber: 1, etag: '"e1"' },
        { partNumber: 2, etag: '"e2"' },
      ]),
    ).toBe(
      '<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        "<Part><ETag>&quot;e1&quot;</ETag><PartNumber>1</PartNumber></Part>" +
        "<Part><ETag>&quot;e2&quot;</ETag><PartNumber>2</PartNumber></Part>" +
        "</CompleteMultipartUpload>",
    );
  });

  it("DeleteObjects body is quiet and escapes keys", () => {
    expect(deleteObjectsXml(["a&b", "<c>"])).toBe(
      '<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        "<Object><Key>a&amp;b</Key></Object><Object><Key>&lt;c&gt;</Key></Object>" +
        "<Quiet>true</Quiet></Delete>",
    );
  });

  it("CreateBucket sends a LocationConstraint outside us-east-1 only", () => {
    expect(createBucketXml("us-east-1")).toBeNull();
    expect(createBucketXml("eu-west-1")).toContain(
      "<LocationConstraint>eu-west-1</LocationConstraint>",
    );
  });
});
