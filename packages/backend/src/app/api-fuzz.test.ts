import {
  API_METHOD_NAMES,
  API_METHODS,
  dispatchApiCall,
  EMBEDDED_TESTBED_ENDPOINT_ID,
  type ApiEnvelope,
  type ApiMethodName,
} from "@taillab/api";
import { parseRunSpec } from "@taillab/core";
import { fuzzSeed } from "@taillab/test-support";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppClient, type AppClient } from "./test-support/app-client.ts";

/**
 * Every call of the app contract, fed generated bad input through the host's end
 * (dispatchApiCall) and the real backend service: each must answer the fields at fault, one
 * line each, and never throw, crash or leak a stack trace. Bad means refused by the call's
 * schema, or well-formed but naming nothing the backend holds, or an experiment whose spec
 * cannot run. Strings hold any code point, controls and non-ASCII ones among them.
 */

const RUNS_PER_CALL = 48;
const SEED = fuzzSeed();

let app: AppClient;
beforeAll(async () => {
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
});

const spec = { clients: 2, samples: 10, objectSize: "1KiB" };
const draft = {
  name: "fuzz",
  endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
  replicaEndpointIds: [],
  spec,
};
const endpointDraft = {
  name: "lab",
  kind: "minio",
  url: "http://127.0.0.1:9000",
  bucket: "loadgen",
  credentials: { kind: "anonymous" },
};

/** A well-formed input of each call, for the generators to spoil. */
const VALID: Record<ApiMethodName, unknown> = {
  appInfo: undefined,
  listEndpoints: undefined,
  addEndpoint: endpointDraft,
  updateEndpoint: { endpointId: "e1", draft: endpointDraft },
  removeEndpoint: { endpointId: "e1" },
  testConnection: { endpointId: "e1" },
  createBucket: { endpointId: "e1" },
  listExperiments: undefined,
  saveExperiment: { experimentId: "x1", draft },
  removeExperiment: { experimentId: "x1" },
  previewExperiment: draft,
  startRun: { experiment: draft },
  stopRun: { runId: "r1" },
  activeRun: undefined,
  retuneRun: { runId: "r1", tuning: { stallProbability: 0.1 } },
  listRuns: undefined,
  getRun: { runId: "r1" },
  renameRun: { runId: "r1", name: "n" },
  tagRun: { runId: "r1", tag: "t" },
  untagRun: { runId: "r1", tag: "t" },
  annotateRun: { runId: "r1", notes: "n" },
  removeRun: { runId: "r1" },
  restoreRun: { runId: "r1" },
  cleanupRun: { runId: "r1" },
  runOrigin: { runId: "r1" },
  exportReport: { runIds: ["r1"], format: "csv" },
  testbedStatus: undefined,
  startTestbed: { replicas: 1 },
  stopTestbed: undefined,
  listLatencyProfiles: undefined,
  kubernetesSettings: undefined,
  saveKubernetesSettings: { namespace: "bench", image: "taillab:0.1.0" },
};

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [prefix];
  const entries = Object.entries(value);
  return [prefix, ...entries.flatMap(([key, child]) => pathsOf(child, [...prefix, key]))];
}

function withChange(
  value: unknown,
  path: Path,
  change: (parent: Record<string, unknown>, key: string) => void,
): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  if (path.length === 0) return copy;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  change(parent, String(path.at(-1)));
  return copy;
}

/** Any value; its strings and keys of any code point (C0, C1, bidi, astral), not just ASCII. */
const anything = fc.anything({ stringUnit: "binary" });
const anyString = fc.string({ unit: "binary", minLength: 1, maxLength: 12 });

/** The valid input spoilt: a value replaced by anything, a field dropped or one added, or all of it replaced. */
function spoilt(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid).filter((path) => path.length > 0);
  if (paths.length === 0) return anything;
  const somePath = fc.constantFrom(...paths);
  return fc.oneof(
    anything,
    fc
      .tuple(somePath, fc.oneof(anything, anyString))
      .map(([path, value]) => withChange(valid, path, (parent, key) => (parent[key] = value))),
    somePath.map((path) => withChange(valid, path, (parent, key) => delete parent[key])),
    fc
      .tuple(somePath, anyString, anything)
      .map(([path, key, value]) =>
        withChange(valid, path.slice(0, -1).concat(["_"]), (parent) => (parent[`${key}x`] = value)),
      ),
  );
}

/** Inputs the call's schema refuses. */
function refusedBySchema(name: ApiMethodName): fc.Arbitrary<unknown> {
  const schema = API_METHODS[name].input;
  return spoilt(VALID[name]).filter((input) => !schema.safeParse(input).success);
}

/** Ids of the backend's own shape, and of any other (path traversal, controls, non-ASCII). */
const unknownId = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}$/).map((id) => `fuzz-${id}`),
  fc.string({ unit: "binary", minLength: 1, maxLength: 24 }),
  fc.constantFrom("../../etc/passwd", "..", ".", "r1/../r2", "%2e%2e", "\u0000", "CON"),
);

/** Input fields that name something the backend holds; an access key id is a credential's. */
const ID_FIELD = /^(?!accessKeyId$)\w*Ids?$/;

function isIdPath(path: Path): boolean {
  return ID_FIELD.test(String(path.at(-1)));
}

/** The fields of a call's input, as its contract (the schema) spells them. */
function contractIdFields(name: ApiMethodName): string[] {
  const schema = API_METHODS[name].input.toJSONSchema({ unrepresentable: "any", io: "input" });
  const keys = [...JSON.stringify(schema).matchAll(/"(\w+)":\{/g)].map((match) => match[1] ?? "");
  return [...new Set(keys.filter((key) => ID_FIELD.test(key)))].sort();
}

/** The valid input with one of its ids swapped for one the backend does not hold. */
function withUnknownId(name: ApiMethodName): fc.Arbitrary<unknown> | null {
  const paths = pathsOf(VALID[name]).filter(isIdPath);
  if (paths.length === 0) return null;
  return fc.tuple(fc.constantFrom(...paths), unknownId).map(([path, id]) =>
    withChange(VALID[name], path, (parent, key) => {
      parent[key] = Array.isArray(parent[key]) ? [id] : id;
    }),
  );
}

/** Well-formed inputs that name nothing the backend holds, or a spec that cannot run. */
const SEMANTIC: Partial<Record<ApiMethodName, fc.Arbitrary<unknown>>> = {
  startRun: spoilt(spec)
    .filter((bad) => typeof bad === "object" && bad !== null && !Array.isArray(bad))
    .filter((bad) => !parseRunSpec(bad).ok)
    .map((bad) => ({ experiment: { ...draft, spec: bad } })),
  previewExperiment: spoilt(spec)
    .filter((bad) => typeof bad === "object" && bad !== null && !Array.isArray(bad))
    .filter((bad) => !parseRunSpec(bad).ok)
    .map((bad) => ({ ...draft, spec: bad })),
};

function expectFieldErrors(
  name: ApiMethodName,
  input: unknown,
  answer: ApiEnvelope<unknown>,
): void {
  // A preview answers a spec's mistakes as its result: that is its way of naming the fields.
  const fields =
    answer.ok && name === "previewExperiment"
      ? (answer.result as { ok: boolean; errors?: { field: string; message: string }[] }).errors
      : answer.ok
        ? undefined
        : answer.error.fields;
  const context = `${name}(${JSON.stringify(input)?.slice(0, 200)}) → ${JSON.stringify(answer).slice(0, 300)}`;
  expect(fields?.length ?? 0, context).toBeGreaterThan(0);
  for (const { field, message } of fields ?? []) {
    expect(field, context).toMatch(/\S/);
    expect(message, context).toMatch(/\S/);
    expect(message, context).not.toMatch(/\n\s+at |\bat .*\.ts:\d+/);
  }
}

describe("the fuzz cases cover the contract", () => {
  it.each(API_METHOD_NAMES)("%s: an unknown-id case for each id its input takes", (name) => {
    const covered = pathsOf(VALID[name])
      .filter(isIdPath)
      .map((path) => String(path.at(-1)));
    expect([...new Set(covered)].sort()).toEqual(contractIdFields(name));
  });
});

describe(`every app call answers generated bad input with field errors, never a crash (fuzz seed ${SEED})`, () => {
  let generated = 0;
  afterAll(() => {
    // The point of the exercise: well over a thousand bad inputs a run.
    expect(generated).toBeGreaterThanOrEqual(1000);
  });

  it.each(API_METHOD_NAMES)("%s", async (name) => {
    const cases = [refusedBySchema(name), withUnknownId(name), SEMANTIC[name]].filter(
      (arbitrary) => arbitrary !== null && arbitrary !== undefined,
    );
    const inputs = fc.oneof(...cases);
    await fc.assert(
      fc.asyncProperty(inputs, async (input) => {
        generated += 1;
        const answer = await dispatchApiCall(app.service, name, input);
        expectFieldErrors(name, input, answer);
      }),
      { numRuns: RUNS_PER_CALL, seed: SEED },
    );
    // Nothing a bad call could have started is running.
    expect(await app.api.activeRun()).toBeNull();
  });
});
