import {
  parseDuration,
  type KubernetesSettings,
  type RunNotice,
  type RunSpec,
  type RunSummary,
  type ShardsStatus,
} from "@taillab/api";
import type { ResultsStore } from "@taillab/store";
import type { SecretSources } from "../credentials.ts";
import {
  DEFAULT_ACTIVE_DEADLINE_SECONDS,
  DEFAULT_BARRIER_TIMEOUT_MS,
  DEFAULT_POD_SETTINGS,
  DEFAULT_TAILLAB_IMAGE,
  DEFAULT_TTL_AFTER_FINISHED_SECONDS,
} from "../distributed/kubernetes-defaults.ts";
import type { RunHooks } from "../run-benchmark.ts";

/** An experiment's load from N pods on the cluster the Kubernetes settings name. */
export interface ClusterTarget {
  shards: number;
  settings: KubernetesSettings;
}

/** A run's hooks, with the shards as they go; a distributed run's notices may have no code. */
export type ClusterRunHooks = Omit<RunHooks, "onNotice"> & {
  onNotice?: (message: string, notice?: RunNotice) => void;
  onShards: (status: ShardsStatus) => void;
};

/**
 * A distributed run as the run manager runs any other: the same hooks (started once the Job is
 * submitted, the phase the shards' merged progress is in, that progress with its percentiles
 * over time, notices), plus the shards as they go; the merged run lands in the library at the
 * end, with the shards' records for its charts.
 */
export async function runOnCluster(
  spec: RunSpec,
  { shards, settings }: ClusterTarget,
  context: { secrets: SecretSources; store: ResultsStore; name: string; tags: string[] },
  hooks: ClusterRunHooks,
): Promise<RunSummary> {
  // The Kubernetes client loads when a run goes to a cluster, not when the app starts.
  const { clusterNamespace, planKubernetesRun, runOnKubernetes } =
    await import("../distributed/kubernetes-run.ts");
  const cluster = {
    ...(settings.kubeconfig !== "" ? { kubeconfig: settings.kubeconfig } : {}),
    ...(settings.context !== "" ? { context: settings.context } : {}),
  };
  const plan = await planKubernetesRun(
    {
      spec,
      shards,
      namespace: settings.namespace || clusterNamespace(cluster),
      image: settings.image || DEFAULT_TAILLAB_IMAGE,
      barrierTimeoutMs: DEFAULT_BARRIER_TIMEOUT_MS,
      activeDeadlineSeconds: DEFAULT_ACTIVE_DEADLINE_SECONDS,
      ttlSecondsAfterFinished: ttlSecondsOf(settings.ttl),
      pod: {
        requests: settings.requests || DEFAULT_POD_SETTINGS.requests,
        limits: settings.limits || DEFAULT_POD_SETTINGS.limits,
        nodeSelector: settings.nodeSelector,
        tolerations: settings.tolerations,
        imagePullSecrets: settings.imagePullSecrets,
        spread: settings.spread || DEFAULT_POD_SETTINGS.spread,
      },
      uploadRecords: true,
    },
    context.secrets,
  );
  await hooks.onRunStart?.({
    runId: plan.runId,
    spec: plan.spec,
    runStartEpochMs: Date.now(),
    keyPrefix: `${plan.spec.keyPrefix}/${plan.runId}/`,
    server: null,
    live: null,
  });
  // The merged figures' phase: a live view starts a phase's figures afresh when it changes.
  let phase = "";
  const { summary } = await runOnKubernetes(plan, {
    cluster,
    secrets: context.secrets,
    store: context.store,
    name: context.name,
    tags: context.tags,
    hooks: {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      ...(hooks.onNotice ? { onNotice: hooks.onNotice } : {}),
      onShards: hooks.onShards,
      onProgress: (progress, { percentiles, intervals }) => {
        const shown = `${progress.pointIndex}/${progress.op}`;
        if (shown !== phase) hooks.onPhaseStart?.(progress.pointIndex, progress.op);
        phase = shown;
        // The shards' histograms stay in the bucket: there is none here to encode.
        hooks.onProgress?.(progress, {
          percentiles,
          // The shards' seconds are merged in the bucket; the newest few are not kept here.
          recentPercentiles: null,
          intervals,
          encodeLatency: () => null,
          encodeRecentIntervals: () => null,
          ended: false,
          // The shards measure their own clients; their health is in their results.
          clientSeconds: [],
        });
      },
    },
  });
  return summary;
}

/** The settings' TTL (checked when they were saved), in seconds; empty: the default. */
export function ttlSecondsOf(text: string): number {
  if (text === "") return DEFAULT_TTL_AFTER_FINISHED_SECONDS;
  const parsed = parseDuration(text);
  return parsed.ok ? Math.ceil(parsed.ms / 1000) : DEFAULT_TTL_AFTER_FINISHED_SECONDS;
}
