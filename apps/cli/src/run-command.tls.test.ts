import { RunSummarySchema } from "@taillab/api";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { selfSignedCertificate } from "@taillab/test-support";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, stderrBesideClientWarnings } from "./test-support/run-cli.ts";

/**
 * A lab server over https with a certificate of its own: the embedded testbed serving TLS with a
 * self-signed certificate made by openssl for this test.
 */

let scratch = "";
let certFile = "";
let keyFile = "";
let testbed: Testbed;
const env = { AWS_ACCESS_KEY_ID: "TLSKEY", AWS_SECRET_ACCESS_KEY: "tls-secret" };

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-tls-"));
  const certificate = await selfSignedCertificate(scratch);
  ({ certFile, keyFile } = certificate);
  testbed = await startTestbed({
    buckets: ["loadgen"],
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
    tls: { cert: certificate.cert, key: certificate.key },
  });
});

afterAll(async () => {
  await testbed?.close();
  await rm(scratch, { recursive: true, force: true });
});

const run = (...extra: string[]) =>
  runCli(
    [
      "run",
      "--endpoint",
      testbed.url,
      "--clients",
      "2",
      "--samples",
      "20",
      "--size",
      "1KiB",
      "--json",
      ...extra,
    ],
    env,
  );

describe("taillab run against an https server with a self-signed certificate", () => {
  it("is refused without its CA, in one line that says what to give", async () => {
    const result = await run();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^taillab run: endpoint ${testbed.url}: cannot connect \\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\\); for a lab server's own certificate, trust its CA \\(--ca-file\\) or skip the check \\(--insecure\\)\\n$`,
      ),
    );
  });

  it.each(["fast", "sdk"])(
    "runs through the %s path trusting the CA file given",
    async (transport) => {
      const result = await run("--ca-file", certFile, "--transport", transport);
      expect(stderrBesideClientWarnings(result.stderr)).toBe("");
      expect(result.code).toBe(0);
      const summary = RunSummarySchema.parse(JSON.parse(result.stdout));
      expect(summary.spec.endpoints?.[0]).toMatchObject({ caFile: certFile, insecure: false });
      expect(summary.points[0]?.phases.map((phase) => [phase.op, phase.errors])).toEqual([
        ["PUT", 0],
        ["GET", 0],
        ["DELETE", 0],
      ]);
    },
  );

  it("runs with --insecure, saying loudly that nothing is checked", async () => {
    const result = await run("--insecure");
    expect(result.code).toBe(0);
    expect(stderrBesideClientWarnings(result.stderr)).toBe(
      `endpoint ${testbed.url}: TLS certificates are NOT checked (insecure): anyone on the way to the server can read and change this run's requests; trust the server's CA with a CA file instead where you can\n`,
    );
  });

  it("names the field of a CA file it cannot use", async () => {
    const missing = await run("--ca-file", join(scratch, "nope.pem"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `taillab run: endpoints[0].caFile: cannot read ${join(scratch, "nope.pem")} (ENOENT) (from --ca-file)\n`,
    );
    const notPem = await run("--ca-file", keyFile);
    expect(notPem.stderr).toBe(
      `taillab run: endpoints[0].caFile: ${keyFile} holds no PEM certificate (expected -----BEGIN CERTIFICATE-----) (from --ca-file)\n`,
    );
    const plain = await runCli(
      [
        "run",
        "--endpoint",
        "http://127.0.0.1:9",
        "--clients",
        "1",
        "--samples",
        "1",
        "--size",
        "1KiB",
        "--insecure",
      ],
      env,
    );
    expect(plain.stderr).toBe(
      "taillab run: endpoints[0].insecure: is for https:// endpoints; http://127.0.0.1:9 does not use TLS (from --insecure)\n",
    );
  });
});
