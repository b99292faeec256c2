import { HedgeOptionsSchema, type TransportKind } from "@taillab/api";
import { createReplicaChooser } from "@taillab/core";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestExecutor } from "../hedged-tied-executor.ts";
import { createTransport, type ObjectTransport } from "./object-transport.ts";
import { countingProxy } from "./test-support/counting-proxy.ts";

/**
 * Reconnects caused by cancellation against what a TCP proxy in front of the testbed saw: the
 * connections it accepted from TailLab.
 */
const credentials = { accessKeyId: "AKIDRECONNECT", secretAccessKey: "reconnect-secret" };
const startedAt = performance.now();
const clock = () => Math.round((performance.now() - startedAt) * 1000);

function transportOf(kind: TransportKind, url: string): ObjectTransport {
  return createTransport(
    kind,
    {
      url,
      region: "us-east-1",
      addressing: "path",
      credentials,
      bucket: "reconnects",
      maxConnections: 1,
    },
    clock,
  );
}

describe.each<TransportKind>(["fast", "sdk"])(
  "reconnects caused by cancellation (%s transport)",
  (kind) => {
    let testbed: Testbed;
    beforeAll(async () => {
      testbed = await startTestbed({ credentials, buckets: ["reconnects"] });
      const transport = transportOf("fast", testbed.url);
      await transport.putObject("k", new Uint8Array(64 * 1024));
      await transport.close();
    });
    afterAll(async () => {
      await testbed?.close();
    });

    it("the request after a cancel on the wire pays the new connection, and only it", async () => {
      const proxy = await countingProxy(new URL(testbed.url));
      const transport = transportOf(kind, proxy.url);
      try {
        const warm = await transport.getObject("k");
        expect({ status: warm.status, reconnectUs: warm.reconnectUs }).toEqual({ status: 200 });
        // Cancelled once the proxy got the request, its answer held back: on the wire.
        const controller = new AbortController();
        proxy.holding = true;
        proxy.onClientData = () => controller.abort();
        const cancelled = await transport.getObject("k", { signal: controller.signal });
        expect(cancelled.error).toBe("Aborted");
        proxy.holding = false;
        proxy.onClientData = () => {};
        const next = await transport.getObject("k");
        expect(next.status).toBe(200);
        expect(next.reconnectUs).toBeGreaterThan(0);
        // Its client queue holds the connect.
        expect(next.sentUs - next.readyUs).toBeGreaterThanOrEqual(next.reconnectUs!);
        const after = await transport.getObject("k");
        expect(after.reconnectUs).toBeUndefined();
        expect(proxy.accepted).toBe(2);
      } finally {
        await transport.close();
        await proxy.close();
      }
    });

    it("tied GETs: the reconnects counted are the new connections the proxies accepted", async () => {
      const proxies = [
        await countingProxy(new URL(testbed.url)),
        await countingProxy(new URL(testbed.url)),
      ];
      const transports = proxies.map((proxy) => transportOf(kind, proxy.url));
      const executor = createRequestExecutor({
        mode: "tied",
        hedge: HedgeOptionsSchema.parse({}),
        chooser: createReplicaChooser({ replicas: 2, strategy: "round-robin" }),
        stopSignal: new AbortController().signal,
      });
      try {
        // One connection per pool before any cancel.
        for (const transport of transports)
          expect((await transport.getObject("k")).status).toBe(200);
        let reconnects = 0;
        for (let request = 0; request < 200; request += 1) {
          const result = await executor.execute(
            (replica, options) => transports[replica]!.getObject("k", options),
            "GET",
          );
          expect(result.winner).not.toBeNull();
          reconnects += result.attempts.filter(
            (each) => each.outcome.reconnectUs !== undefined,
          ).length;
        }
        const newConnections = proxies.reduce((sum, proxy) => sum + proxy.accepted - 1, 0);
        expect(reconnects).toBeGreaterThan(0);
        expect(reconnects).toBe(newConnections);
      } finally {
        await Promise.all(transports.map((transport) => transport.close()));
        await Promise.all(proxies.map((proxy) => proxy.close()));
      }
    });
  },
);
