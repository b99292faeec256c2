import {
  coded,
  fieldError,
  type ExperimentDraft,
  type FieldError,
  type RunPointParams,
  type RunSpec,
  type StoredEndpoint,
} from "@taillab/api";
import { expandSweep, parseRunSpec, shardSpecProblems } from "@taillab/core";
import { machineCapacityProblems } from "../machine-capacity.ts";
import { credentialsRefOf } from "./endpoint-credentials.ts";

/** An experiment as it would run: its endpoint and replicas, and the spec of each of its runs. */
export type CheckedExperiment =
  | {
      ok: true;
      endpoint: StoredEndpoint;
      replicas: StoredEndpoint[];
      specs: RunSpec[];
      points: RunPointParams[];
    }
  | { ok: false; errors: FieldError[] };

/**
 * Checks an experiment as its runs would see it, with its endpoint filled in, naming each bad
 * field as in the draft (`endpointId`, `spec.clients`, `spec.objectSize[1]`) so a form can mark
 * it. One spec per mode of `modes` (or the spec's own mode), in that order.
 */
export function checkExperiment(
  draft: ExperimentDraft,
  findEndpoint: (id: string) => StoredEndpoint | undefined,
): CheckedExperiment {
  const errors: FieldError[] = [];
  const endpoint = findEndpoint(draft.endpointId);
  if (!endpoint) {
    errors.push(fieldError("endpointId", coded("noSavedEndpoint", { id: draft.endpointId })));
  }
  const { endpoints, ...spec } = draft.spec;
  if (endpoints !== undefined) {
    errors.push(fieldError("spec.endpoints", coded("endpointsFromExperiment")));
  }
  const replicas = endpoint ? replicaEndpoints(draft, endpoint, findEndpoint, errors) : [];
  const parsed = parseRunSpec(endpoint ? specOnEndpoints(spec, endpoint, replicas) : spec);
  const specErrors = parsed.ok ? machineCapacityProblems(parsed.spec) : parsed.errors;
  for (const error of specErrors) {
    errors.push({ ...error, field: error.field === "spec" ? error.field : `spec.${error.field}` });
  }
  const generators = draft.loadGenerators;
  if (parsed.ok && generators?.kind === "kubernetes") {
    for (const error of shardSpecProblems(parsed.spec, generators.shards)) {
      const field = error.field === "endpoint" ? "endpointId" : `spec.${error.field}`;
      errors.push({ ...error, field });
    }
  }
  if (!endpoint || !parsed.ok || errors.length > 0) return { ok: false, errors };
  // The mode is the one field a series changes, and no other field's check depends on it.
  const specs = (draft.modes ?? [parsed.spec.mode]).map((mode) => ({ ...parsed.spec, mode }));
  return { ok: true, endpoint, replicas, specs, points: expandSweep(parsed.spec) };
}

/**
 * The saved endpoints of `replicaEndpointIds`, each a server of `endpoint`'s bucket that is not
 * one of the run's servers already; what is wrong with one is said at its place in the list.
 */
function replicaEndpoints(
  draft: ExperimentDraft,
  endpoint: StoredEndpoint,
  findEndpoint: (id: string) => StoredEndpoint | undefined,
  errors: FieldError[],
): StoredEndpoint[] {
  const ids = draft.replicaEndpointIds ?? [];
  if (ids.length === 0) return [];
  if (endpoint.kind === "testbed") {
    errors.push(fieldError("replicaEndpointIds", coded("replicasOfTestbed")));
    return [];
  }
  const replicas: StoredEndpoint[] = [];
  const seen = new Set([endpoint.id]);
  ids.forEach((id, index) => {
    const field = `replicaEndpointIds[${index}]`;
    const replica = findEndpoint(id);
    if (!replica) {
      errors.push(fieldError(field, coded("noSavedEndpoint", { id })));
    } else if (replica.kind === "testbed") {
      errors.push(fieldError(field, coded("replicaIsTestbed", { name: replica.name })));
    } else if (seen.has(id)) {
      errors.push(fieldError(field, coded("replicaRepeated", { name: replica.name })));
    } else if (draft.spec.bucket === undefined && replica.bucket !== endpoint.bucket) {
      // A spec's own bucket is every server's; else the experiment's endpoint names it.
      const bucketError = coded("replicaBucket", {
        name: replica.name,
        bucket: replica.bucket,
        expected: endpoint.bucket,
      });
      errors.push(fieldError(field, bucketError));
    } else {
      replicas.push(replica);
    }
    seen.add(id);
  });
  return replicas;
}

/**
 * The spec with the endpoints' part: each server's URL and a reference to its keys (never the
 * keys), the experiment's endpoint first and its replicas after it; or, for a testbed endpoint,
 * no endpoints (the run starts an embedded testbed) and the spec's own testbed setup if it has
 * one, else the endpoint's. The spec's bucket wins over the endpoint's.
 */
function specOnEndpoints(
  spec: Record<string, unknown>,
  endpoint: StoredEndpoint,
  replicas: readonly StoredEndpoint[],
): Record<string, unknown> {
  const bucket = spec.bucket ?? endpoint.bucket;
  if (endpoint.kind === "testbed") {
    return { ...spec, bucket, testbed: spec.testbed ?? endpoint.testbed };
  }
  return { ...spec, bucket, endpoints: [endpoint, ...replicas].map(runEndpointOf) };
}

function runEndpointOf(endpoint: StoredEndpoint): Record<string, unknown> {
  return {
    url: endpoint.url,
    region: endpoint.region,
    addressing: endpoint.addressing,
    credentials: credentialsRefOf(endpoint.credentials, endpoint.id),
    ...(endpoint.caFile === undefined ? {} : { caFile: endpoint.caFile }),
    insecure: endpoint.insecure ?? false,
  };
}

/**
 * Requests one run measures: each point's phases (write, read, cleanup: `samples` each) or its
 * workload's mix (`samples`; the prepared objects are not measured), times `repeat`; 0 for an
 * open loop until stopped, whose count nobody knows in advance.
 */
export function measuredRequestCount(spec: RunSpec, points: readonly RunPointParams[]): number {
  const phases = spec.workload ? 1 : spec.phases.length;
  return points.reduce((sum, point) => sum + point.samples * phases, 0) * spec.repeat;
}

/**
 * How long one open-loop run's measured requests take by their schedule (rate × requests), the
 * closed-loop cleanup left out; null for a closed loop, whose speed is the server's, and for an
 * open loop until stopped.
 */
export function openLoopDurationMs(
  spec: RunSpec,
  points: readonly RunPointParams[],
): number | null {
  if (!spec.openLoop || spec.openLoop.untilStopped) return null;
  const scheduledPhases = spec.workload
    ? 1
    : spec.phases.filter((phase) => phase !== "cleanup").length;
  const requests = points.reduce((sum, point) => sum + point.samples * scheduledPhases, 0);
  return Math.round((requests / spec.openLoop.rateHz) * 1000 * spec.repeat);
}
