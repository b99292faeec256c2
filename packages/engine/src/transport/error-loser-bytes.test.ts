import { HedgeOptionsSchema, type TransportKind } from "@taillab/api";
import { createReplicaChooser } from "@taillab/core";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestExecutor } from "../hedged-tied-executor.ts";
import { createTransport, type ObjectTransport } from "./object-transport.ts";
import { countingProxy, type CountingProxy } from "./test-support/counting-proxy.ts";

/**
 * A tied request's copy that lost with an error answer (a 503 and its XML document) moved that
 * answer's body over the wire: its bytes count, as a cancelled loser's do, not 0. The failing
 * replica answers every GET with SlowDown at once; the other answers a while later and wins.
 */

const credentials = { accessKeyId: "AKIDERRORLOSER", secretAccessKey: "error-loser-secret" };
const bucket = "error-loser";
const startedAt = performance.now();
const clock = () => Math.round((performance.now() - startedAt) * 1000);
const REQUESTS = 20;

function transportOf(kind: TransportKind, url: string): ObjectTransport {
  return createTransport(
    kind,
    { url, region: "us-east-1", addressing: "path", credentials, bucket, maxConnections: 1 },
    clock,
  );
}

describe.each<TransportKind>(["fast", "sdk"])("a loser answered with an error (%s)", (kind) => {
  let failing: Testbed;
  let serving: Testbed;
  let proxy: CountingProxy;
  beforeAll(async () => {
    failing = await startTestbed({
      credentials,
      buckets: [bucket],
      interceptor: ({ method }) =>
        method === "GET" ? { fault: { status: 503, code: "SlowDown", message: "Slow down." } } : {},
    });
    serving = await startTestbed({
      credentials,
      buckets: [bucket],
      interceptor: ({ method }) => (method === "GET" ? { delayMs: 30 } : {}),
    });
    const writer = transportOf("fast", serving.url);
    await writer.putObject("k", new Uint8Array(1024));
    await writer.close();
    proxy = await countingProxy(new URL(failing.url));
  });
  afterAll(async () => {
    await proxy?.close();
    await failing?.close();
    await serving?.close();
  });

  it("counts the error answer's body as the loser's bytes, within what crossed the proxy", async () => {
    const transports = [transportOf(kind, proxy.url), transportOf(kind, serving.url)];
    const executor = createRequestExecutor({
      mode: "tied",
      hedge: HedgeOptionsSchema.parse({}),
      chooser: createReplicaChooser({ replicas: 2, strategy: "round-robin" }),
      stopSignal: new AbortController().signal,
    });
    try {
      const losers = [];
      for (let request = 0; request < REQUESTS; request += 1) {
        const result = await executor.execute(
          (replica, options) => transports[replica]!.getObject("k", options),
          "GET",
        );
        expect(result.winner).not.toBeNull();
        losers.push(...result.attempts.filter((_, index) => index !== result.winner));
      }
      const answered = losers.filter(({ outcome }) => outcome.status === 503);
      expect(answered.length).toBeGreaterThan(0);
      for (const { outcome } of answered) {
        expect(outcome.error).toBe("SlowDown");
        expect(outcome.bytes).toBeGreaterThan(0);
      }
      // Headers aside: the bodies are less than all the failing replica sent.
      const loserBytes = losers.reduce((sum, { outcome }) => sum + outcome.bytes, 0);
      expect(loserBytes).toBeLessThan(proxy.toClient);
    } finally {
      await Promise.all(transports.map((transport) => transport.close()));
    }
  });
});
