import { describe, expect, it } from "vitest";
import { createLatencyProfileInterceptor } from "./latency-profile-interceptor.ts";
import type { S3Operation } from "./operations/registry.ts";

describe("createLatencyProfileInterceptor", () => {
  const interceptor = createLatencyProfileInterceptor({
    profile: { serviceTime: { kind: "fixed", ms: 7 } },
    seed: 1,
    replica: 0,
  });
  const decide = (operation: S3Operation) =>
    interceptor({
      method: "PUT",
      operation,
      bucket: "b",
      key: "k",
      signal: new AbortController().signal,
      tieId: null,
    });

  it.each<S3Operation>([
    "PutObject",
    "GetObject",
    "HeadObject",
    "DeleteObject",
    "CopyObject",
    "UploadPart",
    "CompleteMultipartUpload",
  ])("shapes %s, which moves object data", (operation) => {
    expect(decide(operation)).toEqual({ delayMs: 7 });
  });

  it.each<S3Operation>([
    "ListObjectsV2",
    "HeadBucket",
    "DeleteObjects",
    "CreateMultipartUpload",
    "AbortMultipartUpload",
    "ListParts",
    "ListMultipartUploads",
  ])("leaves %s alone, which is setup or bookkeeping", (operation) => {
    expect(decide(operation)).toBeUndefined();
  });
});
