import type { EndpointDraftInput } from "@taillab/api";
import { createControlPlane, type ControlPlane } from "@taillab/engine";
import { startMinio, type MinioServer } from "@taillab/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppClient, type AppClient } from "./test-support/app-client.ts";

/** The connection test against a real MinIO: the server most users point TailLab at first. */

let minio: MinioServer;
let bucket: ControlPlane;
let app: AppClient;

beforeAll(async () => {
  minio = await startMinio();
  bucket = createControlPlane({
    url: minio.url,
    region: "us-east-1",
    addressing: "path",
    credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey },
    bucket: "loadgen",
    maxConnections: 1,
  });
  await bucket.createBucket();
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
  await bucket?.close();
  await minio?.stop();
});

const draft = (overrides: Partial<EndpointDraftInput> = {}): EndpointDraftInput => ({
  name: "MinIO",
  kind: "minio",
  url: minio.url,
  credentials: { kind: "stored", accessKeyId: minio.accessKeyId },
  secretAccessKey: minio.secretAccessKey,
  ...overrides,
});

describe("testConnection against MinIO", () => {
  it("passes, names the server, times the requests and leaves the bucket empty", async () => {
    const saved = await app.api.addEndpoint(draft());
    const report = await app.api.testConnection({ endpointId: saved.id });
    expect(report.verdict, report.message).toBe("ok");
    expect(report.server).toMatch(/MinIO/i);
    expect(report.timings.map((timing) => timing.op)).toEqual([
      "LIST_BUCKETS",
      "LIST",
      "PUT",
      "GET",
      "HEAD",
      "DELETE",
    ]);
    expect(await bucket.listKeys("")).toEqual([]);
  });

  it("tells a wrong secret from a missing bucket", async () => {
    const wrongSecret = await app.api.testConnection({
      draft: draft({ secretAccessKey: "wrong-secret" }),
    });
    expect(wrongSecret.verdict).toBe("credentials");
    expect(wrongSecret.message).toMatch(/rejected the secret key \(SignatureDoesNotMatch\)/);
    const missing = await app.api.testConnection({ draft: draft({ bucket: "missing-bucket" }) });
    expect(missing.verdict).toBe("bucket");
    expect(missing.message).toMatch(/"missing-bucket" does not exist \(NoSuchBucket\)/);
  });
});
