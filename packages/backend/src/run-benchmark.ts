import {
  RESULTS_SCHEMA_VERSION,
  type PointSummary,
  type RequestRecord,
  type RunProgress,
  type RunSpec,
  type RunSummary,
} from "@taillab/api";
import { expandSweep, parseRunSpec } from "@taillab/core";
import {
  createControlPlane,
  EndpointError,
  epochNowMs,
  runClosedLoopPoint,
  type ControlPlane,
  type TransportTarget,
} from "@taillab/engine";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { resolveCredentials, type SecretSources } from "./credentials.ts";
import { startEmbeddedTestbed, type EmbeddedTestbed } from "./embedded-testbed.ts";
import { InputError } from "./input-error.ts";

export interface RunHooks {
  /** Aborting ends the run within about a second, keeping what was measured. */
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  onRecords?: (pointIndex: number, records: readonly RequestRecord[]) => void;
  /** Status lines for a person: the embedded testbed's address, cleanup after a stop. */
  onNotice?: (message: string) => void;
}

export function validateRunSpec(input: unknown): RunSpec {
  const parsed = parseRunSpec(input);
  if (!parsed.ok) throw new InputError(parsed.errors);
  return parsed.spec;
}

/** Sortable and unique: `20261121-235501-4f3a9c`. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/**
 * Runs every point of a spec against its endpoint (or the embedded testbed): preflight checks,
 * the closed-loop phases per point, and a guarantee that every key this run wrote is deleted
 * when the spec asks for cleanup, even after a stop or failed DELETEs.
 */
export async function runBenchmark(
  input: unknown,
  secrets: SecretSources,
  hooks: RunHooks = {},
): Promise<RunSummary> {
  const spec = validateRunSpec(input);
  const runId = newRunId();
  const startedAt = new Date().toISOString();
  const testbed = spec.endpoints ? null : await startEmbeddedTestbed(spec.bucket);
  try {
    if (testbed) hooks.onNotice?.(`embedded testbed listening on ${testbed.url}`);
    const target = await resolveTarget(spec, secrets, testbed);
    const controlPlane = createControlPlane({ ...target, maxConnections: 1 });
    try {
      await preflight(spec, controlPlane, target.url);
      const server = await controlPlane.serverHeader();
      const points = await runPoints(spec, runId, target, controlPlane, hooks);
      return {
        schemaVersion: RESULTS_SCHEMA_VERSION,
        runId,
        startedAt,
        finishedAt: new Date().toISOString(),
        spec,
        endpointUrls: [target.url],
        server,
        stopped: hooks.signal?.aborted ?? false,
        points,
      };
    } finally {
      await controlPlane.close();
    }
  } finally {
    await testbed?.close();
  }
}

async function resolveTarget(
  spec: RunSpec,
  secrets: SecretSources,
  testbed: EmbeddedTestbed | null,
): Promise<Omit<TransportTarget, "maxConnections">> {
  if (testbed) {
    return {
      url: testbed.url,
      region: "us-east-1",
      addressing: "path",
      credentials: testbed.credentials,
      bucket: spec.bucket,
    };
  }
  const endpoints = spec.endpoints ?? [];
  if (endpoints.length > 1) {
    throw InputError.of(
      "endpoints",
      "a closed-loop run uses one endpoint; give one URL (several are for replica request modes)",
    );
  }
  const [endpoint] = endpoints;
  if (!endpoint) throw InputError.of("endpoints", "expected at least one endpoint");
  return {
    url: endpoint.url.replace(/\/$/, ""),
    region: endpoint.region,
    addressing: endpoint.addressing,
    credentials: await resolveCredentials(
      endpoint.credentials,
      secrets,
      "endpoints[0].credentials",
    ),
    bucket: spec.bucket,
  };
}

async function preflight(spec: RunSpec, controlPlane: ControlPlane, url: string): Promise<void> {
  try {
    await controlPlane.checkAccess();
  } catch (error) {
    if (!(error instanceof EndpointError)) throw error;
    if (error.field === "bucket" && spec.createBucket) {
      await controlPlane.createBucket();
      return;
    }
    const field = { endpoint: `endpoint ${url}`, credentials: "credentials", bucket: "bucket" }[
      error.field
    ];
    throw InputError.of(field, error.message);
  }
}

async function runPoints(
  spec: RunSpec,
  runId: string,
  target: Omit<TransportTarget, "maxConnections">,
  controlPlane: ControlPlane,
  hooks: RunHooks,
): Promise<PointSummary[]> {
  const keyPrefix = `${spec.keyPrefix}/${runId}/`;
  const points = expandSweep(spec);
  const summaries: PointSummary[] = [];
  const runStartEpochMs = epochNowMs();
  let firstKey = 0;
  for (const [pointIndex, params] of points.entries()) {
    if (hooks.signal?.aborted) break;
    const result = await runClosedLoopPoint({
      target,
      transportKind: spec.transport,
      params,
      phases: spec.phases,
      keyPrefix,
      firstKey,
      workers: spec.workers ?? availableParallelism(),
      verify: spec.verify,
      runStartEpochMs,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      onProgress: (progress) =>
        hooks.onProgress?.({
          runId,
          pointIndex,
          pointCount: points.length,
          params,
          ...progress,
        }),
      onRecords: (records) => hooks.onRecords?.(pointIndex, records),
    });
    summaries.push({ params, phases: result.phases });
    const deleteFailed = result.phases.some((phase) => phase.op === "DELETE" && phase.errors > 0);
    const leftover = result.writtenKeyCount > result.deletedKeyCount || deleteFailed;
    if (spec.phases.includes("cleanup") && leftover) {
      const keys = Array.from(
        { length: result.writtenKeyCount },
        (_, index) => `${keyPrefix}${firstKey + index}`,
      );
      hooks.onNotice?.(`deleting the ${keys.length} objects this point wrote`);
      await controlPlane.deleteKeys(keys);
    }
    firstKey += params.samples;
  }
  return summaries;
}
