/**
 * A distributed run on Kubernetes (`taillab k8s run`, the app's "N pods on Kubernetes"): an
 * Indexed Job of N TailLab shards, each `taillab run --shard I/N`, followed through the Job's
 * status and the run's folder in the bucket (live merged figures), merged into the results
 * library at the end, and the Job and the Secret it made taken away. No coordinator of TailLab's
 * own: the shards meet at the barrier in the bucket they measure. It loads the Kubernetes client:
 * hosts import it (`@taillab/backend/kubernetes`) only when they run on a cluster.
 */
import {
  DEFAULT_CREDENTIALS,
  secretPlaceholder,
  type FieldError,
  type RunNotice,
  type RunProgress,
  type RunSpec,
  type ShardsStatus,
} from "@taillab/api";
import {
  formatRunFolderUri,
  mergeEndedPhase,
  mergeShardProgress,
  shardSpecProblems,
  type MergedShardProgress,
  type RunFolderUri,
} from "@taillab/core";
import {
  contextNamespace,
  createDistributedRunClient,
  loadKubeConfig,
  ManifestError,
  validatedManifests,
  type ClusterOptions,
  type DistributedRunClient,
  type SubmittedRun,
  type DistributedRunManifests,
  type JobProgress,
} from "@taillab/kubernetes";
import type { ResultsStore } from "@taillab/store";
import { resolveCredentials, type SecretSources } from "../credentials.ts";
import { InputError } from "../input-error.ts";
import { newRunId, validateRunSpec } from "../run-benchmark.ts";
import { noticeText } from "../run-notices.ts";
import { STOP_KEY } from "./barrier-markers.ts";
import { mergeRunFolder, NoShardResultError, type MergeOutcome } from "./merge-run.ts";
import { parsePodSettings, type PodSettingsText } from "./pod-settings-text.ts";
import { openRunFolder } from "./run-folder-client.ts";
import { goneKey } from "./run-folder-layout.ts";
import { readRunFolder, type RunFolderSnapshot } from "./run-folder-reader.ts";
import { progressIntervalMs } from "./shard-run.ts";

export interface KubernetesRunRequest {
  /** The run spec as a user wrote it; its endpoints must be reachable from the pods. */
  spec: unknown;
  shards: number;
  namespace: string;
  /** The TailLab image the pods run (`taillab` is its entrypoint). */
  image: string;
  /**
   * An existing Secret with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the pods; without
   * one, the run makes one from the credentials of the spec's first endpoint here.
   */
  secretName?: string;
  /**
   * The earliest start, epoch ms (the pods' start-at); default: now. Manifests printed for review
   * or GitOps are applied later: the barrier's deadline is this plus barrierTimeoutMs.
   */
  startAtMs?: number;
  /** Shards not ready this long after the start are missing, and the run is aborted. */
  barrierTimeoutMs: number;
  /** The Job's hard stop. */
  activeDeadlineSeconds: number;
  /** The Job, its pods and its Secret are deleted this long after it finished. */
  ttlSecondsAfterFinished: number;
  /** Resources, node selector, tolerations, image pull secrets and spread of the pods. */
  pod: PodSettingsText;
  uploadRecords: boolean;
}

export interface KubernetesRunPlan {
  runId: string;
  /** The spec as checked here (credentials as this process finds them). */
  spec: RunSpec;
  /** Where the shards meet and leave their results. */
  folder: RunFolderUri;
  manifests: DistributedRunManifests;
  /** The shards' earliest start and the barrier's deadline, epoch ms: apply before the latter. */
  startAtMs: number;
  deadlineMs: number;
}

/** The namespace of the kubeconfig's context, as kubectl would use it, else "default". */
export function clusterNamespace(cluster: ClusterOptions): string {
  return contextNamespace(loadKubeConfig(cluster)) ?? "default";
}

/** After a stop, shards that were measuring get this long to leave what they measured. */
const STOP_SETTLE_MS = 30_000;

/**
 * The run's Job and Secret, checked (inputs, the 63-character pod name rule, the Kubernetes
 * schemas). `secrets` resolves the credentials the Secret carries; without them (printing the
 * manifests) the Secret's values are left out, as manifestsYaml prints them anyway.
 */
export async function planKubernetesRun(
  request: KubernetesRunRequest,
  secrets: SecretSources | null,
): Promise<KubernetesRunPlan> {
  const spec = validateRunSpec(request.spec);
  const pod = parsePodSettings(request.pod);
  const problems = [
    ...shardSpecProblems(spec, request.shards),
    ...podProblems(spec),
    ...pod.problems,
  ];
  if (problems.length > 0 || pod.settings === null) throw new InputError(problems);
  const runId = newRunId();
  const folder: RunFolderUri = {
    bucket: spec.bucket,
    prefix: `${spec.keyPrefix}/${runId}/`,
    runId,
  };
  const [endpoint] = spec.endpoints ?? [];
  const keys =
    request.secretName !== undefined || !endpoint || secrets === null
      ? null
      : await resolveCredentials(endpoint.credentials, secrets, "endpoints[0].credentials");
  const credentials =
    request.secretName !== undefined
      ? { kind: "existing" as const, secretName: request.secretName }
      : {
          kind: "create" as const,
          accessKeyId: keys?.accessKeyId ?? secretPlaceholder("AWS_ACCESS_KEY_ID"),
          secretAccessKey: keys?.secretAccessKey ?? secretPlaceholder("AWS_SECRET_ACCESS_KEY"),
        };
  const runArgs = [
    "run",
    "--spec-json",
    escapeExpansion(JSON.stringify(podSpec(spec))),
    "--barrier-timeout",
    `${request.barrierTimeoutMs}ms`,
    ...(request.uploadRecords ? ["--upload-records"] : []),
  ];
  const startAtMs = request.startAtMs ?? Date.now();
  try {
    const manifests = validatedManifests({
      name: `taillab-${runId}`,
      namespace: request.namespace,
      shards: request.shards,
      image: request.image,
      runArgs,
      resultsUri: formatRunFolderUri(folder),
      startAt: new Date(startAtMs).toISOString(),
      activeDeadlineSeconds: request.activeDeadlineSeconds,
      ttlSecondsAfterFinished: request.ttlSecondsAfterFinished,
      credentials,
      pod: pod.settings,
      labels: { "app.kubernetes.io/instance": runId },
    });
    return {
      runId,
      spec,
      folder,
      manifests,
      startAtMs,
      deadlineMs: startAtMs + request.barrierTimeoutMs,
    };
  } catch (error) {
    if (error instanceof ManifestError) throw new InputError(error.problems.map(asRequestField));
    throw error;
  }
}

/** The Job's fields as the request names them. */
function asRequestField({ field, message }: FieldError): FieldError {
  const names: Record<string, string> = {
    activeDeadlineSeconds: "activeDeadline",
    secretName: "secret",
    name: "shards",
    ttlSecondsAfterFinished: "ttl",
  };
  return { field: names[field] ?? field, message };
}

/** What a spec refers to on this machine that a pod does not have. */
function podProblems(spec: RunSpec): FieldError[] {
  return (spec.endpoints ?? []).flatMap((endpoint, index) =>
    endpoint.caFile === undefined
      ? []
      : [
          {
            field: `endpoints[${index}].caFile`,
            message: `${endpoint.caFile} is a file of this machine, not of the pods: use a CA the image trusts, or run the shards by hand where the file is`,
          },
        ],
  );
}

/** Kubernetes expands $(VAR) in a container's args; $$ is a plain $ (a spec's name may hold one). */
function escapeExpansion(text: string): string {
  return text.split("$").join("$$");
}

/**
 * The spec a pod runs: every signed endpoint's keys come from the Secret's AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, which the Job puts in the pod's environment.
 */
function podSpec(spec: RunSpec): RunSpec {
  return {
    ...spec,
    ...(spec.endpoints
      ? {
          endpoints: spec.endpoints.map((endpoint) => ({
            ...endpoint,
            credentials:
              endpoint.credentials.kind === "anonymous"
                ? endpoint.credentials
                : DEFAULT_CREDENTIALS,
          })),
        }
      : {}),
  };
}

export interface KubernetesRunHooks {
  signal?: AbortSignal;
  /** In English, and as data when it has a code (RunNotice). */
  onNotice?: (message: string, notice?: RunNotice) => void;
  /** The shards as the Job and the run's folder show them, on every change. */
  onShards?: (status: ShardsStatus) => void;
  /**
   * About every second: the phase most shards are in, its figures merged (finished shards' last
   * figures included), its percentiles so far and its newest seconds on the merged run clock.
   */
  onProgress?: (
    progress: RunProgress,
    live: Pick<MergedShardProgress, "percentiles" | "intervals">,
  ) => void;
}

export interface KubernetesRunOptions {
  cluster: ClusterOptions;
  /** To read the run's folder with the credentials of the spec's first endpoint. */
  secrets: SecretSources;
  store: ResultsStore;
  name?: string;
  /** Besides "distributed" and "kubernetes". */
  tags?: string[];
  /** Keep the run's folder in the bucket once merged (MergeOptions.keepRunFolder). */
  keepRunFolder?: boolean;
  hooks?: KubernetesRunHooks;
}

/**
 * Submits the plan (after the apiserver's dry run), follows it to its end, merges what the shards
 * left into the library and deletes the Job (with its pods) and the Secret it made. A stop
 * writes the run's stop marker, deletes the Job (its pods are told to stop and leave what they
 * measured) and merges what arrives.
 */
export async function runOnKubernetes(
  plan: KubernetesRunPlan,
  options: KubernetesRunOptions,
): Promise<MergeOutcome> {
  const hooks = options.hooks ?? {};
  const shards = plan.manifests.job.spec?.completions ?? 1;
  const client = createDistributedRunClient(loadKubeConfig(options.cluster));
  const runFolder = await openRunFolder(plan.spec, options.secrets, plan.folder);
  const { markers, bucket } = runFolder;
  await client.dryRun(plan.manifests);
  const run = await client.submit(plan.manifests);
  notify(hooks, {
    code: "jobSubmitted",
    params: {
      job: run.jobName,
      namespace: run.namespace,
      shards,
      folder: formatRunFolderUri(plan.folder),
    },
  });
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    await client.remove(run);
  };
  const watch = watchShards(shards, plan, markers, hooks);
  const following = new AbortController();
  // A failed index is a shard that ended without its result (a killed pod, exit 3): the others
  // waiting for it at a phase gate are told at once, not after the gate's wait.
  const told = new Set<number>();
  const tellGone = (failed: readonly number[]) => {
    for (const index of failed.filter((shard) => !told.has(shard))) {
      told.add(index);
      markers
        .put(goneKey(index), JSON.stringify({ index, at: new Date().toISOString() }))
        .catch((error: unknown) =>
          notify(hooks, {
            code: "goneNotWritten",
            params: { shard: index, error: (error as Error).message },
          }),
        );
    }
  };
  let cannotStart: string[] | null = null;
  const starting = watchStart(client, run, plan, hooks, (reasons) => {
    cannotStart = reasons;
    following.abort(new Error("cannot start"));
  });
  try {
    const onStop = () => following.abort(new Error("stopped"));
    hooks.signal?.addEventListener("abort", onStop, { once: true });
    try {
      await client.follow(run, {
        onProgress: (progress) => {
          watch.jobChanged(progress);
          starting.jobChanged(progress);
          tellGone(progress.failedIndexes);
        },
        signal: following.signal,
      });
    } catch (error) {
      if (!following.signal.aborted) throw error;
    } finally {
      hooks.signal?.removeEventListener("abort", onStop);
      starting.stop();
    }
    if (cannotStart !== null) {
      await remove();
      throw new NoShardResultError(
        `Job ${run.jobName} in namespace ${run.namespace}: not every pod had started by the barrier's deadline (${new Date(plan.deadlineMs).toISOString()}), so no shard could: ${(cannotStart as string[]).join("; ")}`,
      );
    }
    if (hooks.signal?.aborted) {
      notify(hooks, { code: "distributedStopping", params: {} });
      await markers.put(STOP_KEY, JSON.stringify({ at: new Date().toISOString() }));
      await remove();
      await watch.settled(STOP_SETTLE_MS);
    } else {
      // The Job finishes after its shards left their done markers, but the last poll may predate
      // the last of them: one look after it, so the shards are last shown as they ended.
      await watch.lookNow();
    }
    watch.stop();
    const merged = await mergeRunFolder({
      markers,
      bucket,
      runId: plan.runId,
      store: options.store,
      shards,
      ...(options.keepRunFolder ? { keepRunFolder: true } : {}),
      ...(options.name !== undefined ? { name: options.name } : {}),
      tags: ["kubernetes", ...(options.tags ?? [])],
    });
    if (merged.runFolder.kind === "left") {
      notify(hooks, {
        code: "runFolderLeft",
        params: { folder: formatRunFolderUri(plan.folder), error: merged.runFolder.error },
      });
    }
    return merged;
  } finally {
    watch.stop();
    starting.stop();
    await remove().catch((error: unknown) =>
      notify(hooks, { code: "jobNotDeleted", params: { error: (error as Error).message } }),
    );
    await runFolder.close();
  }
}

function notify(hooks: KubernetesRunHooks, notice: RunNotice): void {
  hooks.onNotice?.(noticeText(notice), notice);
}

/** How often the cluster is asked why pods have not started, while some have not. */
const START_CHECK_MS = 2_000;

/**
 * While some of the Job's pods have not started: why, in the cluster's words, told on every
 * change. Past the barrier's deadline the shards that did start give up, and so does the run:
 * `giveUp` gets the reasons (else a Job whose pods cannot start runs to its active deadline).
 */
function watchStart(
  client: DistributedRunClient,
  run: SubmittedRun,
  plan: KubernetesRunPlan,
  hooks: KubernetesRunHooks,
  giveUp: (reasons: string[]) => void,
) {
  const shards = plan.manifests.job.spec?.completions ?? 1;
  let job: JobProgress | null = null;
  let told = "";
  let checking = false;
  const check = async () => {
    const started = job ? job.ready + job.completedIndexes.length + job.failedIndexes.length : 0;
    if (checking || started >= shards) return;
    checking = true;
    try {
      const reasons = await client.startProblems(run);
      const text = reasons.join("; ");
      if (text !== "" && text !== told) {
        notify(hooks, { code: "podsNotStarting", params: { reasons: text } });
      }
      told = text;
      if (reasons.length > 0 && Date.now() >= plan.deadlineMs) giveUp(reasons);
    } catch (error) {
      const text = `the cluster could not be asked why (${(error as Error).message})`;
      if (text !== told) notify(hooks, { code: "podsNotStarting", params: { reasons: text } });
      told = text;
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), START_CHECK_MS);
  return {
    jobChanged(progress: JobProgress) {
      job = progress;
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** Polls the run's folder about every second (slower for many shards) while the Job runs. */
function watchShards(
  shards: number,
  plan: KubernetesRunPlan,
  markers: Parameters<typeof readRunFolder>[0],
  hooks: KubernetesRunHooks,
) {
  let job: JobProgress | null = null;
  let folder: RunFolderSnapshot | null = null;
  let lastStatus = "";
  /** The phase shown last, and whether it was every shard's, ended. */
  let shown: { progress: RunProgress; final: boolean } | null = null;
  // The shards' progress objects change about this often (progressIntervalMs); reading all of
  // them is one GET each, so many shards are read less often.
  const pollMs = Math.max(progressIntervalMs(shards), shards * 20);
  const emit = () => {
    const status = shardsStatus(shards, job, folder);
    const seen = JSON.stringify(status);
    if (seen !== lastStatus) hooks.onShards?.(status);
    lastStatus = seen;
  };
  let stopped = false;
  const look = async () => {
    try {
      folder = await readRunFolder(markers, { progress: true, results: false });
    } catch (error) {
      // A look under way when the watch stopped fails as the run closes its client: the run has
      // said how it ended, and this notice would come after that last line.
      if (!stopped) {
        notify(hooks, { code: "folderUnreadable", params: { error: (error as Error).message } });
      }
      return;
    }
    emit();
    // A finished shard's progress is its last figures: the merge takes them as they are.
    const merged = mergeShardProgress(folder.progress, plan.runId);
    if (!merged) return;
    // The shards moved on since the last look: the phase shown then is shown once more as every
    // shard ended it, so a live view keeps its last figures, not those of the look before.
    if (shown && !shown.final && !samePhase(shown.progress, merged.progress)) {
      const ended = mergeEndedPhase(folder.progress, plan.runId, shown.progress);
      if (ended?.shards.length === shards) hooks.onProgress?.(ended.progress, ended);
    }
    const final =
      merged.shards.length === shards &&
      folder.progress.every(
        (shard) => shard.ended === true && samePhase(shard.progress, merged.progress),
      );
    shown = { progress: merged.progress, final };
    hooks.onProgress?.(merged.progress, merged);
  };
  let looking = look();
  const lookNow = async () => {
    looking = looking.then(look);
    await looking;
  };
  const timer = setInterval(() => {
    looking = looking.then(look);
  }, pollMs);
  return {
    jobChanged(progress: JobProgress) {
      job = progress;
      emit();
    },
    /** One more look at the run's folder, taken now (after the looks already under way). */
    lookNow,
    /**
     * Until every shard that reached the barrier has left its result or given up, or `timeoutMs`
     * passed. Each look is taken after the stop: the last poll's may predate a shard's first
     * progress, and a shard that had just started would be merged without.
     */
    async settled(timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (!stopped && Date.now() < deadline) {
        await lookNow();
        const snapshot = folder as RunFolderSnapshot | null;
        if (snapshot && unsettledShards(snapshot).length === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** Shards that reached the barrier or measured, and have neither finished nor given up. */
export function unsettledShards(snapshot: RunFolderSnapshot): number[] {
  const started = new Set([
    ...snapshot.readyAtMs.keys(),
    ...snapshot.progress.map((progress) => progress.index),
  ]);
  return [...started]
    .filter((index) => !snapshot.done.has(index) && !snapshot.aborted.has(index))
    .sort((a, b) => a - b);
}

export function shardsStatus(
  shardCount: number,
  job: JobProgress | null,
  folder: RunFolderSnapshot | null,
): ShardsStatus {
  const sorted = (values: Iterable<number>) => [...values].sort((a, b) => a - b);
  const done = folder?.done ?? new Set<number>();
  const failed = job?.failedIndexes ?? [];
  return {
    shardCount,
    podsReady: job?.ready ?? 0,
    ready: sorted(folder?.readyAtMs.keys() ?? []),
    // A killed shard's last progress stays in the folder: the Job's failed index says it ended.
    running: sorted(
      (folder?.progress ?? [])
        .map((progress) => progress.index)
        .filter((index) => !done.has(index) && !failed.includes(index)),
    ),
    done: sorted(done),
    failed,
    job: job?.finished ?? "running",
    message: job?.message ?? null,
  };
}

function samePhase(a: RunProgress, b: RunProgress): boolean {
  return a.pointIndex === b.pointIndex && a.op === b.op;
}
