import { startMinio, type MinioServer } from "@taillab/test-support";
import { createHash, randomFillSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlPlane } from "./control-plane.ts";
import { uploadInParts } from "./multipart-upload.ts";
import type { TransportKind } from "@taillab/api";
import { createTransport } from "./object-transport.ts";

let minio: MinioServer;

beforeAll(async () => {
  minio = await startMinio();
  const controlPlane = createControlPlane(target());
  await controlPlane.createBucket();
  await controlPlane.close();
});

afterAll(async () => {
  await minio?.stop();
});

function target() {
  return {
    url: minio.url,
    region: "us-east-1",
    addressing: "path" as const,
    credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey },
    bucket: "multipart",
    maxConnections: 4,
  };
}

describe("a 64 MiB multipart upload to MinIO", () => {
  const body = randomFillSync(Buffer.alloc(64 * 1024 * 1024));
  const md5Hex = createHash("md5").update(body).digest("hex");

  it.each<TransportKind>(["fast", "sdk"])("is read back byte for byte (%s path)", async (kind) => {
    const transport = createTransport(kind, target(), () => Math.round(performance.now() * 1000));
    const key = `big/${kind}`;
    const upload = await uploadInParts(transport, key, body, 8 * 1024 * 1024, 4);
    expect(upload.outcome.error).toBeNull();
    expect(upload.parts).toHaveLength(8);
    expect(upload.outcome.bytes).toBe(body.length);
    expect(upload.complete?.etag).toMatch(/-8"$/);
    const read = await transport.getObject(key, { expect: { bytes: body.length, md5Hex } });
    expect(read).toMatchObject({ status: 200, error: null, bytes: body.length });
    expect((await transport.deleteObject(key)).error).toBeNull();
    await transport.close();
  });
});
