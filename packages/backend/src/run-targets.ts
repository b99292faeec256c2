import { coded, type RunNotice, type RunSpec } from "@taillab/api";
import type { TargetTls, TransportTarget } from "@taillab/engine";
import { X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolveCredentials, type SecretSources } from "./credentials.ts";
import type { EmbeddedTestbed } from "./embedded-testbed.ts";
import { InputError } from "./input-error.ts";

/** A replica of the service a run measures, as the engine takes it (no pool size yet). */
export type RunTarget = Omit<TransportTarget, "maxConnections">;

/**
 * Where a spec's requests go: each endpoint with its credentials resolved by reference, its CA
 * file read and its request timeout, or the embedded testbed's replicas. Bad references and
 * unreadable CA files are InputErrors naming the endpoint's field.
 */
export async function resolveTargets(
  spec: RunSpec,
  secrets: SecretSources,
  testbed: EmbeddedTestbed | null,
): Promise<RunTarget[]> {
  if (testbed) return testbed.urls.map((url) => testbedTarget(url, testbed, spec));
  return Promise.all(
    (spec.endpoints ?? []).map(async (endpoint, index) => {
      const tls = await readTargetTls(endpoint, `endpoints[${index}].caFile`);
      return {
        bucket: spec.bucket,
        requestTimeoutMs: spec.requestTimeoutMs,
        url: endpoint.url.replace(/\/$/, ""),
        region: endpoint.region,
        addressing: endpoint.addressing,
        credentials: await resolveCredentials(
          endpoint.credentials,
          secrets,
          `endpoints[${index}].credentials`,
        ),
        ...(tls ? { tls } : {}),
      };
    }),
  );
}

/** One replica of the embedded testbed (a live session's new replicas too). */
export function testbedTarget(url: string, testbed: EmbeddedTestbed, spec: RunSpec): RunTarget {
  return {
    url,
    region: "us-east-1",
    addressing: "path",
    credentials: testbed.credentials,
    bucket: spec.bucket,
    requestTimeoutMs: spec.requestTimeoutMs,
  };
}

/** What a person should know before requests go out: TLS without any certificate check. */
export function targetNotices(spec: RunSpec): RunNotice[] {
  return (spec.endpoints ?? [])
    .filter((endpoint) => endpoint.insecure)
    .map((endpoint) => ({ code: "tlsUnchecked", params: { url: endpoint.url } }));
}

/**
 * How to check an endpoint's certificate: its CA file read (an InputError naming `field` when it
 * cannot be read or holds no certificate), no check, or null for the system's CAs.
 */
export async function readTargetTls(
  endpoint: { caFile?: string | undefined; insecure?: boolean | undefined },
  field: string,
): Promise<TargetTls | null> {
  if (endpoint.insecure) return { insecure: true };
  if (endpoint.caFile === undefined) return null;
  let pem: string;
  try {
    pem = await readFile(endpoint.caFile, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw InputError.of(field, coded("caFileUnreadable", { file: endpoint.caFile, code }));
  }
  try {
    new X509Certificate(pem);
  } catch {
    throw InputError.of(field, coded("caFileNotPem", { file: endpoint.caFile }));
  }
  return { ca: pem };
}
