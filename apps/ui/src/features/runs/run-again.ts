import type { ExperimentDraftInput, RunMeta } from "@taillab/api";
import { withoutKey } from "../../shared/without-key.ts";

/**
 * A stored run as an experiment to run again: its spec as it ran, on the saved endpoints it ran
 * on (which bring the servers and keys back, so the spec's own are left out).
 */
export function runAgainDraft(
  meta: RunMeta,
  endpointId: string,
  replicaEndpointIds: readonly string[] = [],
): ExperimentDraftInput {
  return {
    name: meta.name,
    endpointId,
    ...(replicaEndpointIds.length > 0 ? { replicaEndpointIds: [...replicaEndpointIds] } : {}),
    spec: withoutKey({ ...meta.spec }, "endpoints"),
  };
}

/**
 * A closed-loop run's open-loop equivalent: the same spec and endpoint, its requests leaving on a
 * schedule at `rateHz` (just under the throughput it measured), so no slow moment is left out.
 */
export function openLoopDraft(
  meta: RunMeta,
  endpointId: string,
  rateHz: number,
): ExperimentDraftInput {
  const draft = runAgainDraft(meta, endpointId);
  return { ...draft, spec: { ...draft.spec, openLoop: { rateHz } } };
}
