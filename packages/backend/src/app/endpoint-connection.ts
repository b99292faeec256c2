import {
  coded,
  type ConnectionReport,
  type EndpointDraft,
  type StoredEndpoint,
} from "@taillab/api";
import { createControlPlane, EndpointError, type TargetTls } from "@taillab/engine";
import { startEmbeddedTestbed } from "../embedded-testbed.ts";
import { InputError, nestedFieldErrors } from "../input-error.ts";
import { readTargetTls } from "../run-targets.ts";
import { testConnection } from "./connection-test.ts";
import { endpointKeys, type EndpointKeys } from "./endpoint-credentials.ts";
import {
  DEFAULT_TESTBED_SETUP,
  endpointDraftProblems,
  storedEndpointOf,
} from "./endpoint-draft.ts";
import type { EndpointsStore } from "./endpoints-store.ts";
import type { SecretsFileStore } from "./secrets-file.ts";

export interface ConnectionTestSources {
  endpoints: EndpointsStore;
  secrets: SecretsFileStore;
  env: Readonly<Record<string, string | undefined>>;
}

type EndpointInput = { endpointId?: string | undefined; draft?: EndpointDraft | undefined };

/**
 * testConnection's input: a saved endpoint by id, or a draft before it is saved — with
 * `endpointId` too when editing, so a draft without a secret uses the saved one. Bad draft
 * fields are named as in the input (`draft.url`).
 */
export async function testEndpointInput(
  input: EndpointInput,
  sources: ConnectionTestSources,
): Promise<ConnectionReport> {
  const { endpoint, keys, tls } = await resolveEndpoint(input, sources);
  return testEndpoint(endpoint, keys, tls);
}

/**
 * createBucket's input, as testConnection's: creates the endpoint's bucket as a run with
 * `--create-bucket` does (a bucket that is already ours is fine), then tests the endpoint again
 * so the verdict shown is the new one. A refusal is a bad input naming the bucket.
 */
export async function createBucketForInput(
  input: EndpointInput,
  sources: ConnectionTestSources,
): Promise<ConnectionReport> {
  const { endpoint, keys, tls } = await resolveEndpoint(input, sources);
  const field = input.draft ? "draft.bucket" : "endpointId";
  if (endpoint.kind === "testbed") {
    throw InputError.of(field, coded("testbedMakesBucket"));
  }
  if (keys.kind === "unavailable") throw InputError.of(field, keys.reason);
  const controlPlane = createControlPlane({
    url: endpoint.url ?? "",
    region: endpoint.region,
    addressing: endpoint.addressing,
    bucket: endpoint.bucket,
    credentials: keys.kind === "keys" ? keys.keys : null,
    maxConnections: 1,
    ...(tls ? { tls } : {}),
  });
  try {
    await controlPlane.createBucket();
  } catch (error) {
    if (error instanceof EndpointError) throw InputError.of(field, error.said);
    throw error;
  } finally {
    await controlPlane.close();
  }
  return testEndpoint(endpoint, keys, tls);
}

interface ResolvedEndpoint {
  endpoint: StoredEndpoint;
  keys: EndpointKeys;
  /** Its certificate check (a CA file read), or null for the system's CAs. */
  tls: TargetTls | null;
}

/** The endpoint an input names, its keys and its CA file, or the fields at fault. */
async function resolveEndpoint(
  input: EndpointInput,
  sources: ConnectionTestSources,
): Promise<ResolvedEndpoint> {
  const { endpoint, keys } = endpointOf(input, sources);
  const tls = await readTargetTls(endpoint, input.draft ? "draft.caFile" : "endpointId");
  return { endpoint, keys, tls };
}

function endpointOf(
  { endpointId, draft }: EndpointInput,
  { endpoints, secrets, env }: ConnectionTestSources,
): { endpoint: StoredEndpoint; keys: EndpointKeys } {
  if (!draft) {
    if (endpointId === undefined) {
      throw InputError.of(
        "endpointId",
        "give endpointId (a saved endpoint) or draft (an endpoint before it is saved)",
      );
    }
    const endpoint = endpoints.require(endpointId, "endpointId");
    return {
      endpoint,
      keys: endpointKeys(endpoint.credentials, secrets.get(endpointId), env),
    };
  }
  const saved = endpointId === undefined ? null : endpoints.require(endpointId, "endpointId");
  const problems = endpointDraftProblems(draft, saved !== null && secrets.has(saved.id));
  if (problems.length > 0) throw new InputError(nestedFieldErrors("draft", problems));
  const now = new Date().toISOString();
  const endpoint = storedEndpointOf(draft, saved?.id ?? "draft", {
    createdAt: now,
    updatedAt: now,
  });
  const secret = draft.secretAccessKey ?? (saved ? secrets.get(saved.id) : null);
  return { endpoint, keys: endpointKeys(endpoint.credentials, secret, env) };
}

/**
 * A testbed endpoint has no server until a run starts one, so its test starts one as a run
 * would, tests it, and closes it.
 */
async function testEndpoint(
  endpoint: StoredEndpoint,
  keys: EndpointKeys,
  tls: TargetTls | null,
): Promise<ConnectionReport> {
  if (endpoint.kind !== "testbed") {
    const url = endpoint.url ?? "";
    return testConnection({
      label: url,
      target: {
        url,
        region: endpoint.region,
        addressing: endpoint.addressing,
        bucket: endpoint.bucket,
        ...(tls ? { tls } : {}),
      },
      credentials: keys,
    });
  }
  const testbed = await startEmbeddedTestbed(
    endpoint.bucket,
    endpoint.testbed ?? DEFAULT_TESTBED_SETUP,
  );
  try {
    const url = testbed.urls[0] ?? "";
    return await testConnection({
      label: coded("embeddedTestbedAt", { url }),
      target: { url, region: "us-east-1", addressing: "path", bucket: endpoint.bucket },
      credentials: { kind: "keys", keys: testbed.credentials },
    });
  } finally {
    await testbed.close();
  }
}
