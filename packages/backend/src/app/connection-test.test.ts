import type { EndpointDraftInput } from "@taillab/api";
import { freePort, selfSignedCertificate } from "@taillab/test-support";
import { startTestbed } from "@taillab/testbed";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSignedTestbed, type SignedTestbed } from "../test-support/signed-testbed.ts";
import { failureOf, startAppClient, type AppClient } from "./test-support/app-client.ts";

let signed: SignedTestbed;
let app: AppClient;

beforeAll(async () => {
  signed = await startSignedTestbed();
  app = await startAppClient({
    env: { TB_ACCESS_KEY_ID: "TESTKEY", TB_SECRET_ACCESS_KEY: "test-secret" },
  });
});
afterAll(async () => {
  await app?.close();
  await signed?.close();
});

const draft = (overrides: Partial<EndpointDraftInput> = {}): EndpointDraftInput => ({
  name: "Signed testbed",
  kind: "custom",
  url: signed.testbed.url,
  credentials: { kind: "stored", accessKeyId: signed.credentials.accessKeyId },
  secretAccessKey: signed.credentials.secretAccessKey,
  ...overrides,
});

describe("testConnection", () => {
  it("passes the embedded testbed endpoint, starting a testbed for the test", async () => {
    const report = await app.api.testConnection({ endpointId: "testbed" });
    expect(report.verdict).toBe("ok");
    expect(report.message).toMatch(/^embedded testbed \(http:\/\/127\.0\.0\.1:\d+\): ready/);
    expect(report.checks.map((check) => check.ok)).toEqual([true, true, true, true]);
    expect(report.timings.map((timing) => timing.op)).toEqual(
      expect.arrayContaining(["LIST", "PUT", "GET", "HEAD", "DELETE"]),
    );
    expect(report.timings.every((timing) => timing.latencyMs > 0)).toBe(true);
  });

  it("passes a real server with the right keys and leaves its bucket as it was", async () => {
    const report = await app.api.testConnection({ draft: draft() });
    expect(report.verdict, report.message).toBe("ok");
    expect(await signed.bucket.listKeys("")).toEqual([]);
  });

  it("says when nothing answers at the URL", async () => {
    const port = await freePort();
    const report = await app.api.testConnection({
      draft: draft({ url: `http://127.0.0.1:${port}` }),
    });
    expect(report.verdict).toBe("unreachable");
    expect(report.message).toBe(
      `http://127.0.0.1:${port}: nothing answers (connection refused) — is the server running on that port?`,
    );
    expect(report.checks.map((check) => check.ok)).toEqual([false, null, null, null]);
    expect(report.timings).toEqual([]);
  });

  it("says which key the server rejected", async () => {
    const wrongSecret = await app.api.testConnection({
      draft: draft({ secretAccessKey: "not-the-secret" }),
    });
    expect(wrongSecret.verdict).toBe("credentials");
    expect(wrongSecret.message).toBe(
      `${signed.testbed.url}: the server rejected the secret key (SignatureDoesNotMatch) — check the secret access key`,
    );
    expect(wrongSecret.checks.map((check) => check.ok)).toEqual([true, false, null, null]);

    const wrongKey = await app.api.testConnection({
      draft: draft({ credentials: { kind: "stored", accessKeyId: "NOSUCHKEY" } }),
    });
    expect(wrongKey.verdict).toBe("credentials");
    expect(wrongKey.message).toMatch(/does not know the access key id \(InvalidAccessKeyId\)/);
    expect(JSON.stringify(wrongKey)).not.toContain("NOSUCHKEY");
  });

  it("says the key is unknown when versitygw answers XAdminUserNotFound", async () => {
    const gateway = createServer((request, response) => {
      request.resume();
      const body =
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>XAdminUserNotFound</Code><Message>No such user exists.</Message></Error>';
      response.writeHead(403, { "content-type": "application/xml" }).end(body);
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    try {
      const report = await app.api.testConnection({ draft: draft({ url }) });
      expect(report.verdict).toBe("credentials");
      expect(report.message).toBe(
        `${url}: the server does not know the access key id (XAdminUserNotFound) — check the access key id`,
      );
    } finally {
      gateway.closeAllConnections();
      await new Promise((resolve) => gateway.close(resolve));
    }
  });

  it("an https server with its own certificate: refused without its CA, ready with its CA file or (insecure) none", async () => {
    const folder = await mkdtemp(join(tmpdir(), "taillab-connection-tls-"));
    const certificate = await selfSignedCertificate(folder);
    const secure = await startTestbed({
      buckets: ["loadgen"],
      tls: { cert: certificate.cert, key: certificate.key },
    });
    try {
      const https = (overrides: Partial<EndpointDraftInput>) =>
        app.api.testConnection({
          draft: draft({ url: secure.url, credentials: { kind: "anonymous" }, ...overrides }),
        });
      const untrusted = await https({});
      expect(untrusted.verdict).toBe("unreachable");
      expect(untrusted.message).toMatch(
        /TLS failed \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/,
      );
      expect((await https({ caFile: certificate.certFile })).verdict).toBe("ok");
      expect((await https({ insecure: true })).verdict).toBe("ok");
      const missing = await failureOf(https({ caFile: join(folder, "none.pem") }));
      expect(missing.fields).toMatchObject([
        {
          field: "draft.caFile",
          message: `cannot read ${join(folder, "none.pem")} (ENOENT)`,
          code: "caFileUnreadable",
        },
      ]);
      const plain = await failureOf(
        app.api.testConnection({ draft: draft({ caFile: certificate.certFile }) }),
      );
      expect(plain.fields).toMatchObject([
        {
          field: "draft.caFile",
          code: "tlsOnlyHttps",
          message: `is for https:// endpoints; ${signed.testbed.url} does not use TLS`,
        },
      ]);
    } finally {
      await secure.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("says when the bucket does not exist", async () => {
    const report = await app.api.testConnection({ draft: draft({ bucket: "no-such-bucket" }) });
    expect(report.verdict).toBe("bucket");
    expect(report.message).toMatch(/bucket "no-such-bucket" does not exist \(NoSuchBucket\)/);
    expect(report.checks.map((check) => check.ok)).toEqual([true, true, false, null]);
  });

  it("creates a missing bucket when asked, and then passes", async () => {
    const saved = await app.api.addEndpoint(draft({ name: "New bucket", bucket: "made-by-test" }));
    expect((await app.api.testConnection({ endpointId: saved.id })).verdict).toBe("bucket");
    const report = await app.api.createBucket({ endpointId: saved.id });
    expect(report.verdict, report.message).toBe("ok");
    // A bucket that is already ours is no failure.
    expect((await app.api.createBucket({ endpointId: saved.id })).verdict).toBe("ok");
    const refused = await failureOf(
      app.api.createBucket({ draft: draft({ bucket: "other", secretAccessKey: "wrong" }) }),
    );
    expect(refused.fields).toMatchObject([
      {
        field: "draft.bucket",
        message: expect.stringMatching(/SignatureDoesNotMatch/),
        code: "atEndpoint",
        params: { problem: { code: "keyRejected", params: { code: "SignatureDoesNotMatch" } } },
      },
    ]);
    const testbed = await failureOf(app.api.createBucket({ endpointId: "testbed" }));
    expect(testbed.fields[0]?.message).toMatch(/creates its bucket itself/);
  });

  it("uses the saved secret for a saved endpoint and for a draft of it", async () => {
    const saved = await app.api.addEndpoint(draft());
    expect((await app.api.testConnection({ endpointId: saved.id })).verdict).toBe("ok");
    const edited = draft({ name: "Edited", secretAccessKey: undefined });
    expect((await app.api.testConnection({ endpointId: saved.id, draft: edited })).verdict).toBe(
      "ok",
    );
    // Without the endpoint id, the draft has no secret to use.
    const unsaved = await failureOf(app.api.testConnection({ draft: edited }));
    expect(unsaved.fields).toMatchObject([
      { field: "draft.secretAccessKey", message: expect.any(String), code: "secretRequired" },
    ]);
  });

  it("reads keys from environment variables, and says which are not set", async () => {
    const fromEnv = await app.api.testConnection({
      draft: draft({
        credentials: {
          kind: "env",
          accessKeyIdVar: "TB_ACCESS_KEY_ID",
          secretAccessKeyVar: "TB_SECRET_ACCESS_KEY",
        },
      }),
    });
    expect(fromEnv.verdict).toBe("ok");
    const unset = await app.api.testConnection({
      draft: draft({
        credentials: {
          kind: "env",
          accessKeyIdVar: "TB_ACCESS_KEY_ID",
          secretAccessKeyVar: "UNSET_SECRET_ACCESS_KEY",
        },
      }),
    });
    expect(unset.verdict).toBe("credentials");
    expect(unset.message).toMatch(/environment variable UNSET_SECRET_ACCESS_KEY is not set/);
  });

  it("an endpoint saved before the variable rule still never reads TailLab's own variables", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "taillab-old-endpoint-"));
    const now = new Date().toISOString();
    await writeFile(
      join(dataDir, "endpoints.json"),
      JSON.stringify({
        schemaVersion: 1,
        endpoints: [
          {
            id: "old",
            name: "Saved long ago",
            kind: "custom",
            url: signed.testbed.url,
            region: "us-east-1",
            addressing: "path",
            bucket: "loadgen",
            credentials: {
              kind: "env",
              accessKeyIdVar: "TAILLAB_SECRETS_PASSPHRASE",
              secretAccessKeyVar: "TB_SECRET_ACCESS_KEY",
            },
            createdAt: now,
            updatedAt: now,
          },
        ],
      }),
    );
    const older = await startAppClient({
      dataDir,
      env: { TAILLAB_SECRETS_PASSPHRASE: "passphrase-value", TB_SECRET_ACCESS_KEY: "x" },
    });
    try {
      const report = await older.api.testConnection({ endpointId: "old" });
      expect(report.verdict).toBe("credentials");
      expect(report.message).toMatch(/"TAILLAB_SECRETS_PASSPHRASE" is one of TailLab's own/);
      expect(JSON.stringify(report)).not.toContain("passphrase-value");
    } finally {
      await older.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("asks for an endpoint or a draft", async () => {
    const neither = await failureOf(app.api.testConnection({}));
    expect(neither.fields[0]?.field).toBe("endpointId");
  });
});
