import { describe, expect, it } from "vitest";
import { isValidBucketName } from "./bucket-name.ts";

describe("isValidBucketName", () => {
  it.each(["abc", "my-bucket", "my.bucket.1", "0numbers9", "a".repeat(63)])(
    "accepts %j",
    (name) => {
      expect(isValidBucketName(name)).toBe(true);
    },
  );

  it.each([
    "ab",
    "a".repeat(64),
    "UPPER",
    "under_score",
    "-leading",
    "trailing-",
    ".leading",
    "double..dot",
    "dash.-dot",
    "dot-.dash",
    "192.168.1.1",
    "xn--punycode",
    "sthree-reserved",
    "amzn-s3-demo-bucket",
    "access-point-s3alias",
    "object-lambda--ol-s3",
    "multi-region.mrap",
    "directory--x-s3",
    "with space",
    "slash/name",
    "",
  ])("refuses %j", (name) => {
    expect(isValidBucketName(name)).toBe(false);
  });
});
