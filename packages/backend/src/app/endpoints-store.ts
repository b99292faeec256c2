import {
  APP_FILES_SCHEMA_VERSION,
  coded,
  fieldError,
  EMBEDDED_TESTBED_DEFAULT_NAME,
  EMBEDDED_TESTBED_ENDPOINT_ID,
  EndpointsFileSchema,
  type EndpointDraft,
  type EndpointsFile,
  type SavedEndpoint,
  type StoredEndpoint,
} from "@taillab/api";
import { writeJsonAtomically } from "@taillab/store";
import { randomBytes } from "node:crypto";
import { InputError, nestedFieldErrors } from "../input-error.ts";
import {
  DEFAULT_TESTBED_SETUP,
  endpointDraftProblems,
  storedEndpointOf,
} from "./endpoint-draft.ts";
import type { SecretsFileStore } from "./secrets-file.ts";
import { createTaskQueue } from "./task-queue.ts";
import { readVersionedFile } from "./versioned-file.ts";

/**
 * Saved endpoints in endpoints.json (replaced atomically on every change), their secrets in the
 * secrets file. What leaves here for the UI is a SavedEndpoint: `hasSecret`, never the secret.
 */
export interface EndpointsStore {
  list(): SavedEndpoint[];
  find(id: string): StoredEndpoint | undefined;
  /** The endpoint, or an InputError naming `field` when there is none with this id. */
  require(id: string, field: string): StoredEndpoint;
  /** Bad fields are thrown as an InputError naming them as in the draft (`url`, `bucket`). */
  add(draft: EndpointDraft): Promise<SavedEndpoint>;
  /**
   * Bad fields are named as in updateEndpoint's input (`endpointId`, `draft.url`). An omitted
   * secret keeps the saved one; credentials other than stored drop it.
   */
  update(id: string, draft: EndpointDraft): Promise<SavedEndpoint>;
  /** Removes the endpoint and its secret. */
  remove(id: string): Promise<void>;
}

/** The first start's endpoint: no server to install before the first run. */
function seedEndpoints(now: string): StoredEndpoint[] {
  return [
    {
      id: EMBEDDED_TESTBED_ENDPOINT_ID,
      name: EMBEDDED_TESTBED_DEFAULT_NAME,
      kind: "testbed",
      region: "us-east-1",
      addressing: "path",
      bucket: "loadgen",
      credentials: { kind: "anonymous" },
      testbed: DEFAULT_TESTBED_SETUP,
      createdAt: now,
      updatedAt: now,
    },
  ];
}

export async function openEndpointsStore(
  path: string,
  secrets: SecretsFileStore,
): Promise<EndpointsStore> {
  const file = await readVersionedFile(path, EndpointsFileSchema, APP_FILES_SCHEMA_VERSION);
  let endpoints = file?.endpoints ?? seedEndpoints(new Date().toISOString());
  const inTurn = createTaskQueue();
  const save = async (next: StoredEndpoint[]) => {
    await writeJsonAtomically(path, {
      schemaVersion: APP_FILES_SCHEMA_VERSION,
      endpoints: next,
    } satisfies EndpointsFile);
    endpoints = next;
  };
  if (!file) await save(endpoints);

  const saved = (endpoint: StoredEndpoint): SavedEndpoint => ({
    ...endpoint,
    hasSecret: endpoint.credentials.kind === "stored" && secrets.has(endpoint.id),
  });
  const find = (id: string) => endpoints.find((endpoint) => endpoint.id === id);
  const require = (id: string, field: string) => {
    const endpoint = find(id);
    if (!endpoint) throw InputError.of(field, coded("noSavedEndpoint", { id }));
    return endpoint;
  };
  const check = (draft: EndpointDraft, existing: StoredEndpoint | null, form: string | null) => {
    const problems = endpointDraftProblems(draft, existing !== null && secrets.has(existing.id));
    const sameName = endpoints.find(
      (other) => other.id !== existing?.id && other.name.toLowerCase() === draft.name.toLowerCase(),
    );
    if (sameName) {
      problems.push(fieldError("name", coded("endpointNameTaken", { name: sameName.name })));
    }
    if (existing?.id === EMBEDDED_TESTBED_ENDPOINT_ID && draft.kind !== "testbed") {
      problems.push(fieldError("kind", coded("testbedStaysTestbed")));
    }
    if (problems.length > 0) {
      throw new InputError(form === null ? problems : nestedFieldErrors(form, problems));
    }
  };
  /** The secret follows the credentials: kept only while they are stored ones. */
  const keepSecret = async (id: string, draft: EndpointDraft) => {
    if (draft.credentials.kind !== "stored") await secrets.remove(id);
    else if (draft.secretAccessKey) await secrets.set(id, draft.secretAccessKey);
  };

  return {
    list: () => endpoints.map(saved),
    find,
    require,
    add: (draft) =>
      inTurn(async () => {
        check(draft, null, null);
        const now = new Date().toISOString();
        const endpoint = storedEndpointOf(draft, `ep-${randomBytes(6).toString("hex")}`, {
          createdAt: now,
          updatedAt: now,
        });
        // The secret first: an endpoint saved without the secret it needs would look broken.
        await keepSecret(endpoint.id, draft);
        await save([...endpoints, endpoint]);
        return saved(endpoint);
      }),
    update: (id, draft) =>
      inTurn(async () => {
        const existing = require(id, "endpointId");
        check(draft, existing, "draft");
        const endpoint = storedEndpointOf(draft, id, {
          createdAt: existing.createdAt,
          updatedAt: new Date().toISOString(),
        });
        await keepSecret(id, draft);
        await save(endpoints.map((other) => (other.id === id ? endpoint : other)));
        return saved(endpoint);
      }),
    remove: (id) =>
      inTurn(async () => {
        require(id, "endpointId");
        if (id === EMBEDDED_TESTBED_ENDPOINT_ID) {
          throw InputError.of("endpointId", coded("testbedNotRemovable"));
        }
        await save(endpoints.filter((endpoint) => endpoint.id !== id));
        await secrets.remove(id);
      }),
  };
}
