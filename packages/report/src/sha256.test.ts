import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Base64 } from "./sha256.ts";

describe("sha256Base64", () => {
  it.each([
    "",
    "abc",
    "a".repeat(55),
    "a".repeat(56),
    "a".repeat(64),
    "a".repeat(1000),
    "延迟 吞吐量 百分位 😀",
  ])("matches node:crypto for %j", (text) => {
    expect(sha256Base64(text)).toBe(createHash("sha256").update(text, "utf8").digest("base64"));
  });
});
