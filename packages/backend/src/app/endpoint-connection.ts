import type { ConnectionReport, EndpointDraft, StoredEndpoint } from "@taillab/api";
import { startEmbeddedTestbed } from "../embedded-testbed.ts";
import { InputError, nestedProblems } from "../input-error.ts";
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

/**
 * testConnection's input: a saved endpoint by id, or a draft before it is saved — with
 * `endpointId` too when editing, so a draft without a secret uses the saved one. Bad draft
 * fields are named as in the input (`draft.url`).
 */
export async function testEndpointInput(
  { endpointId, draft }: { endpointId?: string | undefined; draft?: EndpointDraft | undefined },
  { endpoints, secrets, env }: ConnectionTestSources,
): Promise<ConnectionReport> {
  if (!draft) {
    if (endpointId === undefined) {
      throw InputError.of(
        "endpointId",
        "give endpointId (a saved endpoint) or draft (an endpoint before it is saved)",
      );
    }
    const endpoint = endpoints.require(endpointId, "endpointId");
    return testEndpoint(endpoint, endpointKeys(endpoint.credentials, secrets.get(endpointId), env));
  }
  const saved = endpointId === undefined ? null : endpoints.require(endpointId, "endpointId");
  const problems = endpointDraftProblems(draft, saved !== null && secrets.has(saved.id));
  if (problems.length > 0) throw new InputError(nestedProblems("draft", problems));
  const now = new Date().toISOString();
  const endpoint = storedEndpointOf(draft, saved?.id ?? "draft", {
    createdAt: now,
    updatedAt: now,
  });
  const secret = draft.secretAccessKey ?? (saved ? secrets.get(saved.id) : null);
  return testEndpoint(endpoint, endpointKeys(endpoint.credentials, secret, env));
}

/**
 * A testbed endpoint has no server until a run starts one, so its test starts one as a run
 * would, tests it, and closes it.
 */
async function testEndpoint(
  endpoint: StoredEndpoint,
  keys: EndpointKeys,
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
      label: `embedded testbed (${url})`,
      target: { url, region: "us-east-1", addressing: "path", bucket: endpoint.bucket },
      credentials: { kind: "keys", keys: testbed.credentials },
    });
  } finally {
    await testbed.close();
  }
}
