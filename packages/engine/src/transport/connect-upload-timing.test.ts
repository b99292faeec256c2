import type { TransportKind } from "@taillab/api";
import { selfSignedCertificate } from "@taillab/test-support";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTransport, type ObjectTransport } from "./object-transport.ts";
import { holdingProxy } from "./test-support/holding-proxy.ts";

/**
 * The connect (TCP + TLS) and a PUT's upload stamped apart from the rest of a request's
 * timeline, against a TCP proxy in front of the testbed that holds the TLS handshake or the
 * upload for a known time.
 */
const credentials = { accessKeyId: "AKIDSLICES", secretAccessKey: "slices-secret" };
const startedAt = performance.now();
const clock = () => Math.round((performance.now() - startedAt) * 1000);
const HOLD_MS = 300;
const HOLD_US = HOLD_MS * 1000;

function transportOf(kind: TransportKind, url: string, ca?: string): ObjectTransport {
  return createTransport(
    kind,
    {
      url,
      region: "us-east-1",
      addressing: "path",
      credentials,
      bucket: "slices",
      maxConnections: 1,
      ...(ca === undefined ? {} : { tls: { ca } }),
    },
    clock,
  );
}

describe.each<TransportKind>(["fast", "sdk"])(
  "connect and upload timing (%s transport)",
  (kind) => {
    let scratch = "";
    let cert = "";
    let tlsTestbed: Testbed;
    let testbed: Testbed;
    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), "taillab-slices-"));
      const certificate = await selfSignedCertificate(scratch);
      cert = certificate.cert;
      tlsTestbed = await startTestbed({
        credentials,
        buckets: ["slices"],
        tls: { cert, key: certificate.key },
      });
      testbed = await startTestbed({ credentials, buckets: ["slices"] });
      for (const [bed, ca] of [
        [tlsTestbed, cert],
        [testbed, undefined],
      ] as const) {
        const transport = transportOf("fast", bed.url, ca);
        expect((await transport.putObject("k", new Uint8Array(1024))).status).toBe(200);
        await transport.close();
      }
    });
    afterAll(async () => {
      await tlsTestbed?.close();
      await testbed?.close();
      await rm(scratch, { recursive: true, force: true });
    });

    it("a held TLS handshake is the first request's connect, and only its", async () => {
      const proxy = await holdingProxy(new URL(tlsTestbed.url), { handshakeMs: HOLD_MS });
      const transport = transportOf(kind, proxy.url, cert);
      try {
        const first = await transport.getObject("k");
        expect(first.status).toBe(200);
        expect(first.connectUs).toBeGreaterThanOrEqual(HOLD_US);
        // The connect lies between ready and sent; what else is there is not the hold.
        const beforeSentUs = first.sentUs - first.readyUs;
        expect(beforeSentUs).toBeGreaterThanOrEqual(first.connectUs!);
        expect(beforeSentUs - first.connectUs!).toBeLessThan(first.connectUs!);
        const next = await transport.getObject("k");
        expect(next.status).toBe(200);
        expect(next.connectUs).toBeUndefined();
        expect(next.reconnectUs).toBeUndefined();
      } finally {
        await transport.close();
        await proxy.close();
      }
    });

    it("a PUT's body held on the wire is its upload, between sent and the answer", async () => {
      const proxy = await holdingProxy(new URL(testbed.url), { uploadMs: HOLD_MS });
      const transport = transportOf(kind, proxy.url);
      try {
        const put = await transport.putObject("big", new Uint8Array(16 * 1024 * 1024));
        expect(put.status).toBe(200);
        expect(put.bodySentUs).toBeDefined();
        const uploadUs = put.bodySentUs! - put.sentUs;
        expect(uploadUs).toBeGreaterThanOrEqual(HOLD_US);
        expect(put.headersUs).toBeGreaterThanOrEqual(put.bodySentUs!);
        // A HEAD or GET on the same connection has no body to send: no upload at all, however
        // late the thread runs undici's callback that says the request went out.
        for (const bodiless of [
          await transport.headObject("big"),
          await transport.getObject("k"),
        ]) {
          expect(bodiless.status).toBe(200);
          expect(bodiless.connectUs).toBeUndefined();
          expect(bodiless.bodySentUs).toBe(bodiless.sentUs);
        }
      } finally {
        await transport.close();
        await proxy.close();
      }
    });
  },
);
