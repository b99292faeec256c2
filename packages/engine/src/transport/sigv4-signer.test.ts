import aws4 from "aws4";
import { describe, expect, it } from "vitest";
import { deleteObjectsXml } from "./request-arguments.ts";
import { createSigner } from "./sigv4-signer.ts";
import { encodeRfc3986, encodeS3Key } from "./s3-uri-encoding.ts";

const CREDENTIALS = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const HOST = "127.0.0.1:9000";
/** 2026-11-27T23:59:59.500Z: the next second is another day. */
const BEFORE_MIDNIGHT_MS = Date.UTC(2026, 10, 27, 23, 59, 59, 500);

/** What the fast transport signed with before: aws4, given the same headers. */
function signedByAws4(
  method: string,
  path: string,
  headers: Record<string, string>,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  region = "us-east-1",
): Record<string, string> {
  return aws4.sign({ service: "s3", region, method, path, headers }, credentials).headers as Record<
    string,
    string
  >;
}

describe("createSigner", () => {
  const requests: [string, string, string, Record<string, string> | undefined][] = [
    ["a GET", "GET", `/bench/${encodeS3Key("run/1/0")}`, undefined],
    [
      "a key that needs encoding",
      "PUT",
      `/bench/${encodeS3Key("dir/a b+c (1)*!'~é/ü")}`,
      undefined,
    ],
    ["a HEAD", "HEAD", "/bench/key", undefined],
    ["a range (not signed)", "GET", "/bench/key", { Range: "bytes=0-99" }],
    [
      "a copy",
      "PUT",
      "/bench/copy",
      { "x-amz-copy-source": `/bench/${encodeS3Key("source key")}` },
    ],
    [
      "a listing",
      "GET",
      `/bench/?list-type=2&continuation-token=${encodeRfc3986("a/b=c+d")}&max-keys=1000&prefix=${encodeRfc3986("p/x y")}`,
      undefined,
    ],
    ["a query name without a value", "POST", "/bench/key?uploads", undefined],
    [
      "a part",
      "PUT",
      `/bench/key?partNumber=3&uploadId=${encodeRfc3986("id/with+signs=")}`,
      undefined,
    ],
    [
      "a DeleteObjects",
      "POST",
      "/bench/?delete",
      { "Content-Type": "application/xml", "Content-MD5": "1B2M2Y8AsgTpgAmY7PhCfg==" },
    ],
    ["a tie id, whitespace collapsed", "GET", "/bench/key", { "X-Taillab-Tie-Id": "  a   b " }],
    ["the bucket list", "GET", "/", undefined],
  ];

  it.each(requests)("signs %s as aws4 does", (_name, method, path, extra) => {
    const sign = createSigner({
      region: "eu-west-1",
      credentials: CREDENTIALS,
      now: () => BEFORE_MIDNIGHT_MS,
    });
    const ours = sign(method, path, HOST, extra);
    const base = {
      Host: HOST,
      "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD",
      "X-Amz-Date": "20261127T235959Z",
      ...extra,
    };
    expect(ours).toEqual(signedByAws4(method, path, base, CREDENTIALS, "eu-west-1"));
  });

  it("signs a session token's header too", () => {
    const credentials = { ...CREDENTIALS, sessionToken: "token/with+signs" };
    const sign = createSigner({ region: "us-east-1", credentials, now: () => BEFORE_MIDNIGHT_MS });
    const base = {
      Host: HOST,
      "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD",
      "X-Amz-Date": "20261127T235959Z",
    };
    const ours = sign("GET", "/bench/key", HOST, undefined);
    expect(ours["X-Amz-Security-Token"]).toBe("token/with+signs");
    expect(ours).toEqual(signedByAws4("GET", "/bench/key", base, credentials));
  });

  it("derives the signing key again when the day changes", () => {
    let nowMs = BEFORE_MIDNIGHT_MS;
    const sign = createSigner({ region: "us-east-1", credentials: CREDENTIALS, now: () => nowMs });
    const body = deleteObjectsXml(["a"]);
    const extra = { "Content-Type": "application/xml", "Content-Length": String(body.length) };
    const before = sign("POST", "/bench/?delete", HOST, extra);
    nowMs += 1000;
    const after = sign("POST", "/bench/?delete", HOST, extra);
    expect(after["X-Amz-Date"]).toBe("20261128T000000Z");
    expect(after.Authorization).toContain("/20261128/us-east-1/s3/aws4_request");
    for (const [headers, date] of [
      [before, "20261127T235959Z"],
      [after, "20261128T000000Z"],
    ] as const) {
      expect(headers).toEqual(
        signedByAws4(
          "POST",
          "/bench/?delete",
          {
            Host: HOST,
            "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD",
            "X-Amz-Date": date,
            ...extra,
          },
          CREDENTIALS,
        ),
      );
    }
  });

  it("adds only the Host header without credentials", () => {
    const sign = createSigner({ region: "us-east-1", credentials: null });
    expect(sign("GET", "/bench/key", HOST, { Range: "bytes=0-1" })).toEqual({
      Host: HOST,
      Range: "bytes=0-1",
    });
  });
});
