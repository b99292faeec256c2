import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startMinio } from "./minio-server.ts";

describe("startMinio", () => {
  it("starts a ready server and stop() removes it and its data", async () => {
    const minio = await startMinio();
    const ready = await fetch(`${minio.url}/minio/health/ready`);
    expect(ready.status).toBe(200);
    expect(existsSync(minio.dataDir)).toBe(true);

    await minio.stop();
    await minio.stop(); // twice is fine
    expect(existsSync(minio.dataDir)).toBe(false);
    await expect(fetch(`${minio.url}/minio/health/ready`)).rejects.toThrow();
  });
});
