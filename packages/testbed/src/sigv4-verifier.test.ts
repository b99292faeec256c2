import { describe, expect, it } from "vitest";
import type { IncomingHttpHeaders } from "node:http";
import {
  canonicalHeaders,
  canonicalQueryString,
  canonicalRequest,
  computeSignature,
  createSigV4Verifier,
  deriveSigningKey,
  uriEncode,
  type SignedRequest,
} from "./sigv4-verifier.ts";

// The worked examples of the S3 SigV4 documentation:
// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
// https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
const CREDENTIALS = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const AMZ_DATE = "20130524T000000Z";
const SIGNED_AT_MS = Date.UTC(2013, 4, 24);
const SCOPE = "20130524/us-east-1/s3/aws4_request";
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const HOST = "examplebucket.s3.amazonaws.com";

interface DocumentedExample {
  name: string;
  request: SignedRequest;
  signedHeaders: string[];
  payloadHash: string;
  signature: string;
}

const EXAMPLES: DocumentedExample[] = [
  {
    name: "GET object with a Range",
    request: {
      method: "GET",
      rawPath: "/test.txt",
      rawQuery: "",
      headers: {
        host: HOST,
        range: "bytes=0-9",
        "x-amz-content-sha256": EMPTY_SHA256,
        "x-amz-date": AMZ_DATE,
      },
    },
    signedHeaders: ["host", "range", "x-amz-content-sha256", "x-amz-date"],
    payloadHash: EMPTY_SHA256,
    signature: "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
  },
  {
    name: "PUT object with an encoded key",
    request: {
      method: "PUT",
      rawPath: "/test%24file.text",
      rawQuery: "",
      headers: {
        host: HOST,
        date: "Fri, 24 May 2013 00:00:00 GMT",
        "x-amz-date": AMZ_DATE,
        "x-amz-storage-class": "REDUCED_REDUNDANCY",
        "x-amz-content-sha256": "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
      },
    },
    signedHeaders: ["date", "host", "x-amz-content-sha256", "x-amz-date", "x-amz-storage-class"],
    payloadHash: "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
    signature: "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
  },
  {
    name: "GET bucket lifecycle (a value-less sub-resource)",
    request: {
      method: "GET",
      rawPath: "/",
      rawQuery: "lifecycle",
      headers: { host: HOST, "x-amz-content-sha256": EMPTY_SHA256, "x-amz-date": AMZ_DATE },
    },
    signedHeaders: ["host", "x-amz-content-sha256", "x-amz-date"],
    payloadHash: EMPTY_SHA256,
    signature: "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543",
  },
  {
    name: "GET bucket listing (query parameters)",
    request: {
      method: "GET",
      rawPath: "/",
      rawQuery: "max-keys=2&prefix=J",
      headers: { host: HOST, "x-amz-content-sha256": EMPTY_SHA256, "x-amz-date": AMZ_DATE },
    },
    signedHeaders: ["host", "x-amz-content-sha256", "x-amz-date"],
    payloadHash: EMPTY_SHA256,
    signature: "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
  },
  {
    name: "presigned GET",
    request: {
      method: "GET",
      rawPath: "/test.txt",
      rawQuery:
        "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host",
      headers: { host: HOST },
    },
    signedHeaders: ["host"],
    payloadHash: "UNSIGNED-PAYLOAD",
    signature: "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
  },
];

describe("uriEncode", () => {
  it.each([
    ["abcXYZ019-_.~", "abcXYZ019-_.~"],
    ["a b", "a%20b"],
    ["a+b", "a%2Bb"],
    ["a/b", "a%2Fb"],
    ["!'()*", "%21%27%28%29%2A"],
    ["$&=?#", "%24%26%3D%3F%23"],
    ["é中", "%C3%A9%E4%B8%AD"],
  ])("%j → %s", (text, encoded) => {
    expect(uriEncode(text)).toBe(encoded);
  });
});

describe("canonicalQueryString", () => {
  it.each([
    ["empty", "", ""],
    ["sorted by name", "prefix=J&max-keys=2", "max-keys=2&prefix=J"],
    ["then by value", "a=2&a=1&a=10", "a=1&a=10&a=2"],
    ["value-less names get an empty value", "delete&uploads=", "delete=&uploads="],
    ["reserved characters re-encoded", "prefix=a%2Fb%20c", "prefix=a%2Fb%20c"],
    ["lower-case escapes upper-cased", "prefix=a%2fb", "prefix=a%2Fb"],
    ["needlessly encoded unreserved characters decoded", "prefix=%7Ea%2D", "prefix=~a-"],
    ["unencoded characters encoded", "prefix=a/b*c", "prefix=a%2Fb%2Ac"],
    ["'+' is a space", "prefix=a+b", "prefix=a%20b"],
    ["UTF-8", "prefix=%C3%A9", "prefix=%C3%A9"],
    ["malformed escapes kept as text", "prefix=100%", "prefix=100%25"],
    ["empty parameters dropped", "a=1&&b=2&", "a=1&b=2"],
    ["the signature itself left out", "X-Amz-Signature=abc&X-Amz-Date=1", "X-Amz-Date=1"],
    ["names compared by code point", "b=1&B=1&a=1&_=1", "B=1&_=1&a=1&b=1"],
    [
      "an UploadPart query",
      "x-id=UploadPart&uploadId=0000000a%2Bb&partNumber=10",
      "partNumber=10&uploadId=0000000a%2Bb&x-id=UploadPart",
    ],
    [
      "a CreateMultipartUpload query",
      "uploads&x-id=CreateMultipartUpload",
      "uploads=&x-id=CreateMultipartUpload",
    ],
  ])("%s: %j → %j", (_name, raw, canonical) => {
    expect(canonicalQueryString(raw)).toBe(canonical);
  });
});

describe("canonicalHeaders", () => {
  it.each<[string, IncomingHttpHeaders, string[], string]>([
    ["trims values", { host: "  h  " }, ["host"], "host:h\n"],
    [
      "collapses inner whitespace",
      { "x-amz-meta-a": "a   b\t\tc" },
      ["x-amz-meta-a"],
      "x-amz-meta-a:a b c\n",
    ],
    ["keeps the signed order", { b: "2", a: "1" }, ["a", "b"], "a:1\nb:2\n"],
    [
      "joins repeated values",
      { "x-amz-meta-a": ["1", "2"] },
      ["x-amz-meta-a"],
      "x-amz-meta-a:1,2\n",
    ],
    ["missing headers are empty", {}, ["range"], "range:\n"],
  ])("%s", (_name, headers, signed, expected) => {
    expect(canonicalHeaders(headers, signed)).toBe(expected);
  });
});

describe("the documented examples", () => {
  const signingKey = deriveSigningKey(CREDENTIALS.secretAccessKey, "20130524", "us-east-1");

  it("builds the documented canonical request for a GET with a Range", () => {
    const [example] = EXAMPLES;
    expect(canonicalRequest(example!.request, example!.signedHeaders, example!.payloadHash)).toBe(
      [
        "GET",
        "/test.txt",
        "",
        `host:${HOST}`,
        "range:bytes=0-9",
        `x-amz-content-sha256:${EMPTY_SHA256}`,
        `x-amz-date:${AMZ_DATE}`,
        "",
        "host;range;x-amz-content-sha256;x-amz-date",
        EMPTY_SHA256,
      ].join("\n"),
    );
  });

  it.each(EXAMPLES)("$name signs as documented", (example) => {
    const canonical = canonicalRequest(example.request, example.signedHeaders, example.payloadHash);
    expect(computeSignature(signingKey, AMZ_DATE, SCOPE, canonical)).toBe(example.signature);
  });
});

function authorization(
  example: DocumentedExample,
  overrides: { credential?: string; signature?: string } = {},
) {
  const credential = overrides.credential ?? `${CREDENTIALS.accessKeyId}/${SCOPE}`;
  return `AWS4-HMAC-SHA256 Credential=${credential}, SignedHeaders=${example.signedHeaders.join(";")}, Signature=${overrides.signature ?? example.signature}`;
}

function signed(example: DocumentedExample, headers: IncomingHttpHeaders = {}): SignedRequest {
  return {
    ...example.request,
    headers: { ...example.request.headers, authorization: authorization(example), ...headers },
  };
}

function query(request: SignedRequest): URLSearchParams {
  return new URLSearchParams(request.rawQuery);
}

describe("createSigV4Verifier", () => {
  const verify = createSigV4Verifier({
    credentials: CREDENTIALS,
    region: "us-east-1",
    now: () => SIGNED_AT_MS + 60_000,
  });
  const [getExample, putExample, , , presignedExample] = EXAMPLES as [
    DocumentedExample,
    DocumentedExample,
    DocumentedExample,
    DocumentedExample,
    DocumentedExample,
  ];

  it("accepts the documented requests and returns the payload hash to check", () => {
    expect(verify(signed(getExample), query(getExample.request))).toEqual({
      expectedPayloadSha256: EMPTY_SHA256,
    });
    expect(verify(signed(putExample), query(putExample.request)).expectedPayloadSha256).toBe(
      putExample.payloadHash,
    );
  });

  it("accepts the documented presigned URL", () => {
    const request = {
      ...presignedExample.request,
      rawQuery: `${presignedExample.request.rawQuery}&X-Amz-Signature=${presignedExample.signature}`,
    };
    expect(verify(request, query(request))).toEqual({ expectedPayloadSha256: undefined });
  });

  it.each<[string, () => SignedRequest, string]>([
    ["no signature at all", () => getExample.request, "AccessDenied"],
    [
      "an unknown access key",
      () => ({
        ...getExample.request,
        headers: {
          ...getExample.request.headers,
          authorization: authorization(getExample, { credential: `AKIDOTHER/${SCOPE}` }),
        },
      }),
      "InvalidAccessKeyId",
    ],
    [
      "another signature",
      () => ({
        ...getExample.request,
        headers: {
          ...getExample.request.headers,
          authorization: authorization(getExample, { signature: "0".repeat(64) }),
        },
      }),
      "SignatureDoesNotMatch",
    ],
    [
      "a changed signed header",
      () => signed(getExample, { range: "bytes=0-10" }),
      "SignatureDoesNotMatch",
    ],
    [
      "a changed path",
      () => ({ ...signed(getExample), rawPath: "/test.txT" }),
      "SignatureDoesNotMatch",
    ],
    [
      "a changed query",
      () => ({ ...signed(getExample), rawQuery: "acl" }),
      "SignatureDoesNotMatch",
    ],
    [
      "a changed method",
      () => ({ ...signed(getExample), method: "HEAD" }),
      "SignatureDoesNotMatch",
    ],
    [
      "another region",
      () => ({
        ...getExample.request,
        headers: {
          ...getExample.request.headers,
          authorization: authorization(getExample, {
            credential: `${CREDENTIALS.accessKeyId}/20130524/eu-west-1/s3/aws4_request`,
          }),
        },
      }),
      "AuthorizationHeaderMalformed",
    ],
    [
      "SigV2",
      () => signed(getExample, { authorization: "AWS AKIAIOSFODNN7EXAMPLE:c2lnbmF0dXJl" }),
      "AuthorizationHeaderMalformed",
    ],
    [
      "a signature of another length in bytes",
      () => ({
        ...getExample.request,
        headers: {
          ...getExample.request.headers,
          authorization: authorization(getExample, { signature: "é".repeat(64) }),
        },
      }),
      "SignatureDoesNotMatch",
    ],
    ["no x-amz-date", () => signed(getExample, { "x-amz-date": undefined }), "AccessDenied"],
    [
      "an impossible date",
      () => signed(getExample, { "x-amz-date": "20131324T000000Z" }),
      "AccessDenied",
    ],
    [
      "no x-amz-content-sha256",
      () => signed(getExample, { "x-amz-content-sha256": undefined }),
      "InvalidRequest",
    ],
    [
      "a payload hash that is not a hash",
      () => signed(getExample, { "x-amz-content-sha256": "abc" }),
      "InvalidArgument",
    ],
  ])("rejects %s with %s", (_name, request, code) => {
    const built = request();
    expect(() => verify(built, query(built))).toThrow(expect.objectContaining({ code }));
  });

  it("rejects a request signed too long ago", () => {
    const late = createSigV4Verifier({
      credentials: CREDENTIALS,
      region: "us-east-1",
      now: () => SIGNED_AT_MS + 16 * 60_000,
    });
    expect(() => late(signed(getExample), query(getExample.request))).toThrow(
      expect.objectContaining({ code: "RequestTimeTooSkewed" }),
    );
  });

  it("accepts a presigned URL until it expires", () => {
    const request = {
      ...presignedExample.request,
      rawQuery: `${presignedExample.request.rawQuery}&X-Amz-Signature=${presignedExample.signature}`,
    };
    const at = (ms: number) =>
      createSigV4Verifier({ credentials: CREDENTIALS, region: "us-east-1", now: () => ms });
    expect(() => at(SIGNED_AT_MS + 86_399_000)(request, query(request))).not.toThrow();
    expect(() => at(SIGNED_AT_MS + 86_401_000)(request, query(request))).toThrow(
      expect.objectContaining({ code: "AccessDenied" }),
    );
  });
});
