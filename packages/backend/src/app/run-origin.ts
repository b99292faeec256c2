import type { Endpoint, Experiment, RunOrigin, RunSpec, StoredEndpoint } from "@taillab/api";
import { isDeepStrictEqual } from "node:util";
import { credentialsRefOf } from "./endpoint-credentials.ts";
import { checkExperiment } from "./experiment-spec.ts";

/**
 * Where a stored run came from, found from its spec alone (a run keeps no other link): the saved
 * endpoint that gives the same server and keys (a testbed endpoint for a run on the embedded
 * testbed), and the experiment whose runs on that endpoint have exactly this spec now. Null for
 * either when none does any more (removed, or edited since).
 */
export function runOrigin(
  spec: RunSpec,
  endpoints: readonly StoredEndpoint[],
  experiments: readonly Experiment[],
): RunOrigin {
  // Every testbed endpoint serves a testbed run (the spec holds its own testbed setup); one set
  // up as the run was comes first.
  const serving = endpoints
    .filter((endpoint) => servesSpec(endpoint, spec))
    .sort(
      (a, b) =>
        Number(isDeepStrictEqual(b.testbed, spec.testbed)) -
        Number(isDeepStrictEqual(a.testbed, spec.testbed)),
    );
  const find = (id: string) => endpoints.find((endpoint) => endpoint.id === id);
  const experiment = experiments.find((candidate) => {
    if (!serving.some((endpoint) => endpoint.id === candidate.endpointId)) return false;
    const checked = checkExperiment(candidate, find);
    return (
      checked.ok && checked.specs.some((runSpec) => isDeepStrictEqual(asStored(runSpec), spec))
    );
  });
  const experimentId = experiment?.id ?? null;
  const replicaIds = (spec.endpoints ?? [])
    .slice(1)
    .map((target) => endpoints.find((endpoint) => servesTarget(endpoint, target))?.id);
  if (replicaIds.length === 0) {
    return { endpointId: experiment?.endpointId ?? serving[0]?.id ?? null, experimentId };
  }
  // Run on fewer servers than it was, it would not be run again.
  const found = replicaIds.filter((id) => id !== undefined);
  if (found.length < replicaIds.length) return { endpointId: null, experimentId };
  return {
    endpointId: experiment?.endpointId ?? serving[0]?.id ?? null,
    replicaEndpointIds: experiment?.replicaEndpointIds ?? found,
    experimentId,
  };
}

/** A spec as run.json holds it: through JSON, so keys set to undefined are gone. */
function asStored(spec: RunSpec): unknown {
  return JSON.parse(JSON.stringify(spec));
}

function servesSpec(endpoint: StoredEndpoint, spec: RunSpec): boolean {
  const first = spec.endpoints?.[0];
  return first ? servesTarget(endpoint, first) : endpoint.kind === "testbed";
}

/** The saved endpoint that gives this server and these keys. */
function servesTarget(endpoint: StoredEndpoint, target: Endpoint): boolean {
  return (
    endpoint.kind !== "testbed" &&
    endpoint.url !== undefined &&
    new URL(endpoint.url).href === new URL(target.url).href &&
    isDeepStrictEqual(credentialsRefOf(endpoint.credentials, endpoint.id), target.credentials)
  );
}
