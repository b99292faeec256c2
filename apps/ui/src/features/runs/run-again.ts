import type { ExperimentDraftInput, RunMeta, RunOrigin } from "@taillab/api";
import { withoutKey } from "../../shared/without-key.ts";

/**
 * Where a stored run runs again: the saved endpoint of its first server and those of its replicas
 * (its RunOrigin). One argument, so no caller can keep the endpoint and drop the replicas.
 */
export type RunAgainTarget = { endpointId: string } & Pick<RunOrigin, "replicaEndpointIds">;

/**
 * A stored run as an experiment to run again: its spec as it ran, on the saved endpoints it ran
 * on (which bring the servers and keys back, so the spec's own are left out).
 */
export function runAgainDraft(meta: RunMeta, target: RunAgainTarget): ExperimentDraftInput {
  const replicaEndpointIds = target.replicaEndpointIds ?? [];
  return {
    name: meta.name,
    endpointId: target.endpointId,
    ...(replicaEndpointIds.length > 0 ? { replicaEndpointIds: [...replicaEndpointIds] } : {}),
    spec: withoutKey({ ...meta.spec }, "endpoints"),
  };
}

/**
 * A closed-loop run's open-loop equivalent: the same spec on the same endpoints, its requests
 * leaving on a schedule at `rateHz` (just under the throughput it measured), so no slow moment
 * is left out.
 */
export function openLoopDraft(
  meta: RunMeta,
  target: RunAgainTarget,
  rateHz: number,
): ExperimentDraftInput {
  const draft = runAgainDraft(meta, target);
  return { ...draft, spec: { ...draft.spec, openLoop: { rateHz } } };
}
