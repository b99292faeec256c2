import { describe, expect, it } from "vitest";
import { encodeRfc3986, encodeS3Key } from "./s3-uri-encoding.ts";

describe("encodeS3Key", () => {
  it.each([
    ["plain", "taillab/run-1/obj-42", "taillab/run-1/obj-42"],
    ["unreserved kept", "a-b_c.d~e", "a-b_c.d~e"],
    ["space", "my key", "my%20key"],
    ["plus is not a space", "a+b", "a%2Bb"],
    ["slashes kept, segments encoded", "dir one/dir+two/f", "dir%20one/dir%2Btwo/f"],
    ["empty segments kept", "a//b/", "a//b/"],
    ["leading slash kept", "/abs", "/abs"],
    ["unicode as UTF-8", "é/日本", "%C3%A9/%E6%97%A5%E6%9C%AC"],
    ["emoji (surrogate pair)", "😀", "%F0%9F%98%80"],
    ["RFC 3986 sub-delims", "!'()*", "%21%27%28%29%2A"],
    ["query and fragment characters", "a?b#c&d=e", "a%3Fb%23c%26d%3De"],
    ["percent and colon", "100%:x", "100%25%3Ax"],
  ])("%s: %j → %j", (_name, key, encoded) => {
    expect(encodeS3Key(key)).toBe(encoded);
  });

  it("leaves a key of unreserved characters and slashes as it is, as encoding it would", () => {
    const unreserved = "ABCXYZabcxyz0189-_.~/";
    for (let index = 0; index < 2000; index++) {
      const key = Array.from(
        { length: 1 + (index % 17) },
        (_, at) => unreserved[(index * 7 + at * 13) % unreserved.length],
      ).join("");
      expect(encodeS3Key(key)).toBe(key.split("/").map(encodeRfc3986).join("/"));
    }
  });

  it("rejects an empty key", () => {
    expect(() => encodeS3Key("")).toThrow(/empty/);
  });
});

describe("encodeRfc3986", () => {
  it("encodes '/' too (for query values)", () => {
    expect(encodeRfc3986("a/b c")).toBe("a%2Fb%20c");
  });
});
