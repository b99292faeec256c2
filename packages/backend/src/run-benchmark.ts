import {
  RESULTS_SCHEMA_VERSION,
  type Operation,
  type PhaseSummary,
  type PointSummary,
  type RunPointParams,
  type RequestRecord,
  type RunProgress,
  type RunNotice,
  type RunSpec,
  type RunSummary,
} from "@taillab/api";
import {
  expandSweep,
  mergeRepeatedPhases,
  operationOf,
  parseOperationMix,
  parseRunSpec,
  repeatedPhaseStats,
  type RepeatedPhase,
} from "@taillab/core";
import {
  createControlPlane,
  defaultWorkerCount,
  NEVER_HEDGED,
  EndpointError,
  epochNowMs,
  runPoint,
  type ControlPlane,
  type EncodedPhaseHistograms,
  type TransportTarget,
} from "@taillab/engine";
import { randomBytes } from "node:crypto";
import { resolveCredentials, type SecretSources } from "./credentials.ts";
import { startEmbeddedTestbed, type EmbeddedTestbed } from "./embedded-testbed.ts";
import { InputError } from "./input-error.ts";
import { noticeText } from "./run-notices.ts";

export interface RunHooks {
  /** Aborting ends the run within about a second, keeping what was measured. */
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  onRecords?: (pointIndex: number, records: readonly RequestRecord[]) => void;
  /** A measured phase starts (each repetition's too): live views reset their figures here. */
  onPhaseStart?: (pointIndex: number, op: Operation) => void;
  /** A phase's summary and merged histograms, as soon as the phase ends. */
  onPhaseDone?: (
    pointIndex: number,
    summary: PhaseSummary,
    histograms: EncodedPhaseHistograms,
  ) => void;
  /**
   * Status lines for a person: the embedded testbed's address, cleanup after a stop. `message`
   * is the English sentence; `notice` the same as data, for a UI's own language.
   */
  onNotice?: (message: string, notice: RunNotice) => void;
  /** After the preflight checks, before the first request: where a results store opens the run. */
  onRunStart?: (start: RunStart) => Promise<void>;
}

export interface RunStart {
  runId: string;
  spec: RunSpec;
  /** `<prefix>/<runId>/`: every key of the run starts with it. */
  keyPrefix: string;
  /** The endpoint's Server header, when it sent one. */
  server: string | null;
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
 * Runs every point of a spec against its endpoints (or the embedded testbed): preflight checks
 * of every replica, the phases of each point, and a guarantee that every key this run wrote is
 * deleted when the spec asks for cleanup, even after a stop or failed DELETEs.
 */
export async function runBenchmark(
  input: unknown,
  secrets: SecretSources,
  hooks: RunHooks = {},
): Promise<RunSummary> {
  const spec = validateRunSpec(input);
  const unhedged = operationsNeverHedged(spec);
  if (unhedged.length > 0) {
    notify(hooks, { code: "unhedgedOps", params: { mode: spec.mode, ops: [...unhedged] } });
  }
  const runId = newRunId();
  const startedAt = new Date().toISOString();
  const testbed = spec.endpoints ? null : await startEmbeddedTestbed(spec.bucket, spec.testbed);
  try {
    if (testbed) notify(hooks, testbedNotice(testbed, spec));
    const targets = await resolveTargets(spec, secrets, testbed);
    const controlPlanes = targets.map((target) =>
      createControlPlane({ ...target, maxConnections: 1 }),
    );
    const [controlPlane] = controlPlanes;
    if (!controlPlane) throw InputError.of("endpoints", "expected at least one endpoint");
    try {
      for (const [index, replica] of controlPlanes.entries()) {
        await preflight(spec, replica, targets[index]?.url ?? "");
      }
      const server = await controlPlane.serverHeader();
      await hooks.onRunStart?.({ runId, spec, keyPrefix: keyPrefixOf(spec, runId), server });
      const points = await runPoints(spec, runId, targets, controlPlane, hooks);
      return {
        schemaVersion: RESULTS_SCHEMA_VERSION,
        runId,
        startedAt,
        finishedAt: new Date().toISOString(),
        spec,
        endpointUrls: targets.map((target) => target.url),
        server,
        mode: spec.mode,
        loop: spec.openLoop ? "open" : "closed",
        stopped: hooks.signal?.aborted ?? false,
        points,
        ...(testbed ? { testbed: testbed.stats() } : {}),
      };
    } finally {
      await Promise.all(controlPlanes.map((replica) => replica.close()));
    }
  } finally {
    await testbed?.close();
  }
}

type Target = Omit<TransportTarget, "maxConnections">;

/** Tells the host, in English and as data. */
function notify(hooks: RunHooks, notice: RunNotice): void {
  hooks.onNotice?.(noticeText(notice), notice);
}

function testbedNotice(testbed: EmbeddedTestbed, spec: RunSpec): RunNotice {
  const { profile, seed } = spec.testbed;
  const profileName = typeof profile === "string" ? profile : "custom";
  return { code: "testbedStarted", params: { urls: testbed.urls, profile: profileName, seed } };
}

/**
 * A point's summary: its phases as run once, or, repeated, all repetitions merged per operation
 * beside each repetition's own phases and the paper's trimmed means. The host is handed each
 * operation's (merged) histograms once.
 */
function pointSummary(
  params: RunPointParams,
  repetitions: readonly { phases: RepeatedPhase[] }[],
  pointIndex: number,
  hooks: RunHooks,
): PointSummary {
  const ops = [...new Set(repetitions.flatMap(({ phases }) => phases.map((p) => p.summary.op)))];
  const merged =
    repetitions.length === 1
      ? (repetitions[0]?.phases ?? [])
      : ops.map((op) =>
          mergeRepeatedPhases(
            repetitions.flatMap(({ phases }) => phases.filter((phase) => phase.summary.op === op)),
          ),
        );
  for (const { summary, histograms } of merged)
    hooks.onPhaseDone?.(pointIndex, summary, histograms);
  const phases = merged.map(({ summary }) => summary);
  if (repetitions.length <= 1) return { params, phases };
  return {
    params,
    phases,
    repetitions: repetitions.map((repetition) => ({
      phases: repetition.phases.map(({ summary }) => summary),
    })),
    repetitionStats: ops.map((op) => ({
      op,
      ...repeatedPhaseStats(
        repetitions.flatMap(({ phases: each }) =>
          each.filter((phase) => phase.summary.op === op).map(({ summary }) => summary),
        ),
      ),
    })),
  };
}

/** The workload's operations that its request mode will not hedge, to say so before the run. */
function operationsNeverHedged(spec: RunSpec): string[] {
  if (spec.mode === "normal" || !spec.workload) return [];
  const mix = parseOperationMix(spec.workload.ops);
  if (!mix.ok) return [];
  const ops = mix.value.map((entry) => operationOf(entry.op));
  return ops.filter((op) => NEVER_HEDGED.has(op));
}

function keyPrefixOf(spec: RunSpec, runId: string): string {
  return `${spec.keyPrefix}/${runId}/`;
}

async function resolveTargets(
  spec: RunSpec,
  secrets: SecretSources,
  testbed: EmbeddedTestbed | null,
): Promise<Target[]> {
  if (testbed) {
    return testbed.urls.map((url) => ({
      url,
      region: "us-east-1",
      addressing: "path",
      credentials: testbed.credentials,
      bucket: spec.bucket,
    }));
  }
  const endpoints = spec.endpoints ?? [];
  return Promise.all(
    endpoints.map(async (endpoint, index) => ({
      url: endpoint.url.replace(/\/$/, ""),
      region: endpoint.region,
      addressing: endpoint.addressing,
      credentials: await resolveCredentials(
        endpoint.credentials,
        secrets,
        `endpoints[${index}].credentials`,
      ),
      bucket: spec.bucket,
    })),
  );
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
  targets: Target[],
  controlPlane: ControlPlane,
  hooks: RunHooks,
): Promise<PointSummary[]> {
  const keyPrefix = keyPrefixOf(spec, runId);
  const points = expandSweep(spec);
  const summaries: PointSummary[] = [];
  const runStartEpochMs = epochNowMs();
  let firstKey = 0;
  for (const [pointIndex, params] of points.entries()) {
    if (hooks.signal?.aborted) break;
    const repetitions: { phases: RepeatedPhase[] }[] = [];
    for (let repetition = 0; repetition < spec.repeat && !hooks.signal?.aborted; repetition += 1) {
      const phases: RepeatedPhase[] = [];
      const result = await runPoint({
        targets,
        transportKind: spec.transport,
        params,
        openLoop: spec.openLoop ?? null,
        workload: spec.workload ?? null,
        mode: spec.mode,
        hedge: spec.hedge,
        replicaChoice: spec.replicaChoice,
        phases: spec.phases,
        keyPrefix,
        firstKey,
        workers: spec.workers ?? defaultWorkerCount(),
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
        onPhaseStart: (op) => hooks.onPhaseStart?.(pointIndex, op),
        onPhaseDone: (summary, histograms) => phases.push({ summary, histograms }),
      });
      repetitions.push({ phases });
      const deleteFailed = result.phases.some((phase) => phase.op === "DELETE" && phase.errors > 0);
      const leftover = result.writtenKeyCount > result.deletedKeyCount || deleteFailed;
      if (spec.phases.includes("cleanup") && leftover) {
        const keys = Array.from(
          { length: result.writtenKeyCount },
          (_, index) => `${keyPrefix}${firstKey + index}`,
        );
        notify(hooks, { code: "cleanupLeftovers", params: { objects: keys.length } });
        await controlPlane.deleteKeys(keys);
      }
      firstKey += result.keySpan;
    }
    summaries.push(pointSummary(params, repetitions, pointIndex, hooks));
  }
  return summaries;
}
