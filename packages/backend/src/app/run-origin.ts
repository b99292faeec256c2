import type { Experiment, RunOrigin, RunSpec, StoredEndpoint } from "@taillab/api";
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
  return {
    endpointId: experiment?.endpointId ?? serving[0]?.id ?? null,
    experimentId: experiment?.id ?? null,
  };
}

/** A spec as run.json holds it: through JSON, so keys set to undefined are gone. */
function asStored(spec: RunSpec): unknown {
  return JSON.parse(JSON.stringify(spec));
}

function servesSpec(endpoint: StoredEndpoint, spec: RunSpec): boolean {
  const first = spec.endpoints?.[0];
  if (!first) return endpoint.kind === "testbed";
  return (
    endpoint.kind !== "testbed" &&
    endpoint.url !== undefined &&
    new URL(endpoint.url).href === new URL(first.url).href &&
    isDeepStrictEqual(credentialsRefOf(endpoint.credentials, endpoint.id), first.credentials)
  );
}
