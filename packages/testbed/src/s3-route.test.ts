import { describe, expect, it } from "vitest";
import { parseTarget, resolveOperation } from "./s3-route.ts";

const SUFFIXES = [".localhost", ".s3.test"];
const COPY_FROM = { "x-amz-copy-source": "/src/k" };

describe("parseTarget", () => {
  it.each<[string, string, string | undefined, string | null, string | null]>([
    ["the service", "/", "127.0.0.1:9000", null, null],
    ["a bucket", "/bucket", "127.0.0.1:9000", "bucket", null],
    ["a bucket with a trailing slash", "/bucket/", "127.0.0.1:9000", "bucket", null],
    ["a key", "/bucket/key", "127.0.0.1:9000", "bucket", "key"],
    ["a key with slashes", "/bucket/a/b//c/", "127.0.0.1:9000", "bucket", "a/b//c/"],
    ["a key with dots", "/bucket/../x", "127.0.0.1:9000", "bucket", "../x"],
    ["an encoded key", "/bucket/a%20b%2Fc%2B%25", "localhost:9000", "bucket", "a b/c+%"],
    ["a literal '+' in the path", "/bucket/a+b", "localhost:9000", "bucket", "a+b"],
    ["a UTF-8 key", "/bucket/%C3%BC%F0%9F%98%80", "localhost", "bucket", "ü😀"],
    ["a bucket in the host", "/key/part", "photos.localhost:9000", "photos", "key/part"],
    ["a dotted bucket in the host", "/k", "my.photos.localhost", "my.photos", "k"],
    ["a bucket in the host, upper-cased", "/k", "Photos.LOCALHOST:1", "photos", "k"],
    ["a bucket in the host, no key", "/", "photos.localhost:9000", "photos", null],
    ["a bucket under the configured host name", "/k", "b1.s3.test:80", "b1", "k"],
    ["the bare host name is path style", "/b/k", "s3.test", "b", "k"],
    ["an IPv6 host is path style", "/b/k", "[::1]:9000", "b", "k"],
    ["no Host header is path style", "/b/k", undefined, "b", "k"],
  ])("%s: %s with Host %s", (_name, url, host, bucket, key) => {
    expect(parseTarget(url, host, SUFFIXES)).toMatchObject({ bucket, key });
  });

  it("keeps the raw path and query for signing and parses the query", () => {
    const target = parseTarget("/b/a%20b?list-type=2&prefix=a%2Fb&delete", "h", SUFFIXES);
    expect(target).toMatchObject({
      rawPath: "/b/a%20b",
      rawQuery: "list-type=2&prefix=a%2Fb&delete",
    });
    expect([...target.query]).toEqual([
      ["list-type", "2"],
      ["prefix", "a/b"],
      ["delete", ""],
    ]);
  });

  it.each(["/b/%E0%A4%A", "/%ZZ/k", "http://elsewhere/b/k", "*"])(
    "refuses %j with InvalidURI",
    (url) => {
      expect(() => parseTarget(url, "h", SUFFIXES)).toThrow(
        expect.objectContaining({ code: "InvalidURI" }),
      );
    },
  );
});

describe("resolveOperation", () => {
  it.each([
    ["GET", "/", "ListBuckets"],
    ["PUT", "/b", "CreateBucket"],
    ["HEAD", "/b", "HeadBucket"],
    ["DELETE", "/b", "DeleteBucket"],
    ["GET", "/b?location", "GetBucketLocation"],
    ["GET", "/b", "ListObjects"],
    ["GET", "/b?prefix=a&marker=x", "ListObjects"],
    ["GET", "/b?list-type=2&prefix=a", "ListObjectsV2"],
    ["POST", "/b?delete", "DeleteObjects"],
    ["PUT", "/b/k", "PutObject"],
    ["PUT", "/b/k?x-id=PutObject", "PutObject"],
    ["GET", "/b/k", "GetObject"],
    ["GET", "/b/k?X-Amz-Signature=abc&X-Amz-Date=1", "GetObject"],
    ["HEAD", "/b/k", "HeadObject"],
    ["DELETE", "/b/k", "DeleteObject"],
    ["GET", "/b?uploads", "ListMultipartUploads"],
    ["GET", "/b?uploads&prefix=a&max-uploads=2", "ListMultipartUploads"],
    ["POST", "/b/k?uploads", "CreateMultipartUpload"],
    ["POST", "/b/k?uploads=", "CreateMultipartUpload"],
    ["PUT", "/b/k?partNumber=1&uploadId=x", "UploadPart"],
    ["PUT", "/b/k?uploadId=x&partNumber=1&x-id=UploadPart", "UploadPart"],
    ["POST", "/b/k?uploadId=x", "CompleteMultipartUpload"],
    ["DELETE", "/b/k?uploadId=x", "AbortMultipartUpload"],
    ["GET", "/b/k?uploadId=x&max-parts=2", "ListParts"],
  ])("%s %s is %s", (method, url, operation) => {
    expect(resolveOperation(method, parseTarget(url, "h", []), {})).toBe(operation);
  });

  it.each([
    ["PUT", "/", "MethodNotAllowed"],
    ["POST", "/b/k", "MethodNotAllowed"],
    ["OPTIONS", "/b", "MethodNotAllowed"],
    ["GET", "/b/k?acl", "NotImplemented"],
    ["PUT", "/b/k?tagging", "NotImplemented"],
    ["GET", "/b/k?partNumber=1", "NotImplemented"],
    ["HEAD", "/b/k?partNumber=1", "NotImplemented"],
    ["GET", "/b/k?versionId=v1", "NotImplemented"],
    ["DELETE", "/b?uploadId=x", "InvalidRequest"],
    ["PUT", "/b?partNumber=1&uploadId=x", "InvalidRequest"],
    ["POST", "/b?uploads", "InvalidRequest"],
    ["GET", "/b?versioning", "NotImplemented"],
    ["GET", "/b?versions", "NotImplemented"],
    ["POST", "/b", "NotImplemented"],
    ["GET", "/b?list-type=1", "InvalidArgument"],
    ["GET", "//k", "InvalidBucketName"],
  ])("%s %s is refused with %s", (method, url, code) => {
    expect(() => resolveOperation(method, parseTarget(url, "h", []), {})).toThrow(
      expect.objectContaining({ code }),
    );
  });

  it.each([
    ["GET", "/b?uploads&location", "ListMultipartUploads"],
    ["POST", "/b/k?uploads&uploadId=x", "CreateMultipartUpload"],
    ["GET", "/b/k?uploadId=x&partNumber=1", "ListParts"],
    ["PUT", "/b/k?uploads", "PutObject"],
    ["GET", "/?acl", "ListBuckets"],
  ])("%s %s, naming two operations' parameters or none of its own, is %s", (method, url, op) => {
    expect(resolveOperation(method, parseTarget(url, "h", []), {})).toBe(op);
  });

  it.each([
    ["HEAD", "/b?uploadId=x", "InvalidRequest"],
    ["GET", "/b?partNumber=1", "InvalidRequest"],
    ["GET", "/b?uploadId=x&acl", "NotImplemented"],
  ])("%s %s, an object's parameter on a bucket, is refused with %s", (method, url, code) => {
    expect(() => resolveOperation(method, parseTarget(url, "h", []), {})).toThrow(
      expect.objectContaining({ code }),
    );
  });

  it("takes a PUT with x-amz-copy-source for CopyObject", () => {
    expect(resolveOperation("PUT", parseTarget("/b/k", "h", []), COPY_FROM)).toBe("CopyObject");
  });

  it("refuses UploadPartCopy, an UploadPart with x-amz-copy-source", () => {
    const target = parseTarget("/b/k?partNumber=1&uploadId=x", "h", []);
    expect(() => resolveOperation("PUT", target, COPY_FROM)).toThrow(
      expect.objectContaining({ code: "NotImplemented" }),
    );
  });
});
