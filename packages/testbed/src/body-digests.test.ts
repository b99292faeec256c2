import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkBodyDigests } from "./body-digests.ts";

const body = Buffer.from("The quick brown fox jumps over the lazy dog");
const base64 = (algorithm: string) => createHash(algorithm).update(body).digest("base64");
// CRC32 (IEEE) of the sentence above, a well-known check value: 0x414fa339.
const CRC32 = Buffer.from([0x41, 0x4f, 0xa3, 0x39]).toString("base64");

describe("checkBodyDigests", () => {
  it("returns the body's MD5", () => {
    expect(checkBodyDigests(body, {}).toString("hex")).toBe(
      createHash("md5").update(body).digest("hex"),
    );
  });

  it.each([
    ["content-md5", base64("md5")],
    ["x-amz-checksum-crc32", CRC32],
    ["x-amz-checksum-sha1", base64("sha1")],
    ["x-amz-checksum-sha256", base64("sha256")],
    ["x-amz-checksum-crc32c", "not checked"],
    ["x-amz-checksum-crc64nvme", "not checked"],
  ])("accepts a matching %s (or one it does not check)", (header, value) => {
    expect(() => checkBodyDigests(body, { [header]: value })).not.toThrow();
  });

  it.each([
    ["content-md5", createHash("md5").update("other").digest("base64"), "BadDigest"],
    ["content-md5", "short", "InvalidDigest"],
    ["x-amz-checksum-crc32", "AAAAAA==", "BadDigest"],
    ["x-amz-checksum-sha1", base64("sha256"), "BadDigest"],
    ["x-amz-checksum-sha256", base64("sha1"), "BadDigest"],
  ])("refuses a wrong %s with %s", (header, value, code) => {
    expect(() => checkBodyDigests(body, { [header]: value })).toThrow(
      expect.objectContaining({ code }),
    );
  });
});
