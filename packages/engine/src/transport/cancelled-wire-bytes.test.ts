import { HedgeOptionsSchema, type TransportKind } from "@taillab/api";
import { createReplicaChooser } from "@taillab/core";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestExecutor } from "../hedged-tied-executor.ts";
import { createTransport, type ObjectTransport } from "./object-transport.ts";
import { countingProxy } from "./test-support/counting-proxy.ts";

/**
 * The bytes of an attempt cancelled on the wire against what a TCP proxy in front of the testbed
 * handed on: the bytes its connection moved both ways, not only the body bytes that reached the
 * handler (a loser cancelled as its answer arrived counted 0).
 */

const credentials = { accessKeyId: "AKIDWIREBYTES", secretAccessKey: "wire-bytes-secret" };
const bucket = "wire-bytes";
const size = 64 * 1024;
const startedAt = performance.now();
const clock = () => Math.round((performance.now() - startedAt) * 1000);

function transportOf(kind: TransportKind, url: string): ObjectTransport {
  return createTransport(
    kind,
    { url, region: "us-east-1", addressing: "path", credentials, bucket, maxConnections: 1 },
    clock,
  );
}

describe.each<TransportKind>(["fast", "sdk"])(
  "bytes of attempts cancelled on the wire (%s transport)",
  (kind) => {
    let testbed: Testbed;
    beforeAll(async () => {
      testbed = await startTestbed({ credentials, buckets: [bucket] });
      const transport = transportOf("fast", testbed.url);
      await transport.putObject("k", new Uint8Array(size));
      await transport.close();
    });
    afterAll(async () => {
      await testbed?.close();
    });

    it("a GET cancelled as its answer arrives counts its request and what it read", async () => {
      const proxy = await countingProxy(new URL(testbed.url));
      // Its own connection: everything the proxy handed on was this request's.
      const transport = transportOf(kind, proxy.url);
      try {
        const controller = new AbortController();
        const cancelled = await transport.getObject("k", {
          signal: controller.signal,
          onResponse: () => controller.abort(),
        });
        expect(cancelled.error).toBe("Aborted");
        // The request reached the server, and at least the answer's headers came back.
        expect(cancelled.bytes).toBeGreaterThan(proxy.fromClient);
        expect(cancelled.bytes).toBeLessThanOrEqual(proxy.fromClient + proxy.toClient);
      } finally {
        await transport.close();
        await proxy.close();
      }
    });

    it("tied GETs: the losers' bytes are within what the proxies handed on beside the winners", async () => {
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
        let loserBytes = 0;
        let winnerBytes = 0;
        for (let request = 0; request < 100; request += 1) {
          const result = await executor.execute(
            (replica, options) => transports[replica]!.getObject("k", options),
            "GET",
          );
          result.attempts.forEach(({ outcome }, index) => {
            if (index === result.winner) winnerBytes += outcome.bytes;
            else loserBytes += outcome.bytes;
          });
        }
        const handedOn = proxies.reduce((sum, proxy) => sum + proxy.fromClient + proxy.toClient, 0);
        expect(loserBytes).toBeGreaterThan(0);
        expect(loserBytes).toBeLessThanOrEqual(handedOn - winnerBytes);
      } finally {
        await Promise.all(transports.map((transport) => transport.close()));
        await Promise.all(proxies.map((proxy) => proxy.close()));
      }
    });
  },
);
