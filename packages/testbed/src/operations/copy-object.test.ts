import { describe, expect, it } from "vitest";
import { parseCopySource } from "./copy-object.ts";

describe("parseCopySource", () => {
  it.each([
    ["/src/key", "src", "key"],
    ["src/key", "src", "key"],
    ["src/a/b/c.txt", "src", "a/b/c.txt"],
    ["/src/a%20b%2Fc%3Fd%25", "src", "a b/c?d%"],
    ["src/%C3%BC%F0%9F%98%80", "src", "ü😀"],
    ["src/a+b", "src", "a+b"],
    ["src/../x", "src", "../x"],
    ["src/key?x-id=CopyObject", "src", "key"],
  ])("reads %j as bucket %j, key %j", (header, bucket, key) => {
    expect(parseCopySource(header)).toEqual({ bucket, key });
  });

  it.each([
    ["", "InvalidArgument"],
    ["src", "InvalidArgument"],
    ["/src", "InvalidArgument"],
    ["src/", "InvalidArgument"],
    ["/src/", "InvalidArgument"],
    ["//key", "InvalidArgument"],
    ["src/%E0%A4%A", "InvalidArgument"],
    ["src/key?versionId=3", "NotImplemented"],
  ])("refuses %j with %s", (header, code) => {
    expect(() => parseCopySource(header)).toThrow(expect.objectContaining({ code }));
  });
});
