import { RunSpecSchema, type RunNotice } from "@taillab/api";
import { startTestbed } from "@taillab/testbed";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runShard } from "./shard-run.ts";

const credentials = { accessKeyId: "SHARDKEY", secretAccessKey: "shard-secret" };
const secrets = {
  env: {
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  },
};

let testbed: Awaited<ReturnType<typeof startTestbed>>;
beforeAll(async () => {
  testbed = await startTestbed({ credentials, buckets: ["loadgen"] });
});
afterAll(() => testbed.close());

/**
 * The testbed behind a door that resets every connection until it is opened: an endpoint that
 * cannot answer yet, as when dozens of shards start at once beside it.
 */
async function closedDoor(): Promise<{ url: string; open: () => void; server: Server }> {
  const upstream = new URL(testbed.url);
  let opened = false;
  const server = createServer((socket) => {
    if (!opened) return void socket.resetAndDestroy();
    const up = connect(Number(upstream.port), upstream.hostname);
    socket.pipe(up).pipe(socket);
    socket.on("error", () => up.destroy());
    up.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, open: () => (opened = true), server };
}

describe("a shard whose endpoint does not answer its preflight yet", () => {
  it("tries again until the barrier's deadline, says so once, and runs when it answers", async () => {
    const door = await closedDoor();
    const notices: RunNotice[] = [];
    try {
      const runId = `preflight-${Date.now()}`;
      const outcome = await runShard({
        spec: RunSpecSchema.parse({
          endpoints: [{ url: door.url }],
          clients: 2,
          samples: 8,
          objectSize: 1024,
          phases: ["write"],
        }),
        secrets,
        role: { index: 0, count: 1 },
        folder: { bucket: "loadgen", prefix: `taillab/${runId}/`, runId },
        startAtMs: Date.now(),
        barrierTimeoutMs: 600_000,
        uploadRecords: false,
        hooks: {
          onNotice: (_message, notice) => {
            if (!notice) return;
            notices.push(notice);
            if (notice.code === "preflightRetrying") door.open();
          },
        },
      });
      expect(outcome.result.status).toBe("complete");
      expect(outcome.summary.points[0]?.phases[0]?.requests).toBe(8);
      const retrying = notices.filter((notice) => notice.code === "preflightRetrying");
      expect(retrying).toHaveLength(1);
      expect(retrying[0]?.params).toMatchObject({ url: door.url });
    } finally {
      door.server.close();
    }
  });

  it("still fails at once when the endpoint answers no (wrong credentials)", async () => {
    const runId = `preflight-denied-${Date.now()}`;
    const notices: RunNotice[] = [];
    const shard = runShard({
      spec: RunSpecSchema.parse({
        endpoints: [{ url: testbed.url }],
        clients: 1,
        samples: 1,
        objectSize: 1024,
        phases: ["write"],
      }),
      secrets: { env: { ...secrets.env, AWS_SECRET_ACCESS_KEY: "wrong" } },
      role: { index: 0, count: 1 },
      folder: { bucket: "loadgen", prefix: `taillab/${runId}/`, runId },
      startAtMs: Date.now(),
      barrierTimeoutMs: 600_000,
      uploadRecords: false,
      hooks: { onNotice: (_message, notice) => notice && notices.push(notice) },
    });
    await expect(shard).rejects.toThrow(/credentials|SignatureDoesNotMatch/);
    expect(notices.filter((notice) => notice.code === "preflightRetrying")).toEqual([]);
  });
});
