/**
 * A distributed run's objects on a cluster, through @kubernetes/client-node: a server-side dry run,
 * submission, following the Job to its end, and deleting what the run created.
 */
import {
  ApiException,
  BatchV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Job,
  type CoreV1Event,
  type V1OwnerReference,
  type V1Pod,
  type V1Secret,
} from "@kubernetes/client-node";
import type { DistributedRunManifests } from "./distributed-job.ts";
import { jobProgress, type JobProgress } from "./job-status.ts";
import { missingKubeconfig } from "./kubeconfig-sources.ts";

export interface ClusterOptions {
  /** A kubeconfig file; default: $KUBECONFIG, then ~/.kube/config, then in-cluster. */
  kubeconfig?: string;
  /** A context of that kubeconfig; default: its current context. */
  context?: string;
}

/** What a submission created, to follow and to delete. */
export interface SubmittedRun {
  namespace: string;
  jobName: string;
  /** The Secret this run created; null when it was given one. */
  createdSecret: string | null;
}

/** The cluster refused a call, or could not be reached; the message says which and why. */
export class KubernetesError extends Error {
  /** HTTP status, 0 when no answer came. */
  readonly status: number;
  constructor(message: string, status: number, options?: ErrorOptions) {
    super(message, options);
    this.name = "KubernetesError";
    this.status = status;
  }
}

export interface DistributedRunClient {
  /** dryRun=All for every object: the apiserver's own validation, nothing persisted. */
  dryRun(manifests: DistributedRunManifests): Promise<void>;
  /**
   * The Job, then the Secret it owns (if the run makes one; the Job waits suspended for it). A
   * submission that fails half-way deletes what it created.
   */
  submit(manifests: DistributedRunManifests): Promise<SubmittedRun>;
  /** Reads the Job until it is Complete or Failed, calling onProgress on every change. */
  follow(
    run: SubmittedRun,
    options?: {
      onProgress?: (progress: JobProgress) => void;
      signal?: AbortSignal;
      pollMs?: number;
      /**
       * How long the apiserver may go unanswered (a dropped connection, 429, 5xx) before the
       * follow gives up; a busy apiserver drops a read now and then while the run goes on.
       */
      outageLimitMs?: number;
    },
  ): Promise<JobProgress>;
  /**
   * Why the Job's pods have not started, in the cluster's own words, one line per distinct
   * reason: pods refused at admission (the Job's FailedCreate events: Pod Security, a
   * ResourceQuota), pods the scheduler cannot place (PodScheduled False) and containers that
   * cannot be made (an image that cannot be pulled, a Secret missing). Empty when none is known.
   */
  startProblems(run: SubmittedRun): Promise<string[]>;
  /** Deletes the Job with its pods (background propagation) and the Secret it created. */
  remove(run: SubmittedRun): Promise<void>;
}

export function loadKubeConfig({ kubeconfig, context }: ClusterOptions = {}): KubeConfig {
  const config = new KubeConfig();
  const missing = kubeconfig === undefined ? missingKubeconfig() : null;
  if (missing !== null) throw new KubernetesError(missing, 0);
  try {
    if (kubeconfig === undefined) config.loadFromDefault();
    else config.loadFromFile(kubeconfig);
  } catch (error) {
    throw new KubernetesError(
      `kubeconfig ${kubeconfig ?? "(default)"}: cannot be read (${(error as Error).message})`,
      0,
      { cause: error },
    );
  }
  if (context !== undefined) {
    if (!config.getContexts().some((known) => known.name === context)) {
      const names = config.getContexts().map((known) => known.name);
      throw new KubernetesError(
        `kubeconfig${kubeconfig ? ` ${kubeconfig}` : ""}: no context "${context}" (it has ${names.join(", ") || "none"})`,
        0,
      );
    }
    config.setCurrentContext(context);
  }
  return config;
}

/** The namespace the kubeconfig's current context names, as kubectl would use it. */
export function contextNamespace(config: KubeConfig): string | null {
  return config.getContextObject(config.getCurrentContext())?.namespace ?? null;
}

const DEFAULT_FOLLOW_POLL_MS = 500;
const DEFAULT_FOLLOW_OUTAGE_LIMIT_MS = 60_000;

/** A read the apiserver may answer next time: no answer at all, too many requests, or a 5xx. */
function isPassing(error: unknown): boolean {
  if (!(error instanceof KubernetesError)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

export function createDistributedRunClient(config: KubeConfig): DistributedRunClient {
  const batch = config.makeApiClient(BatchV1Api);
  const core = config.makeApiClient(CoreV1Api);
  const server = config.getCurrentCluster()?.server ?? "(no cluster)";

  async function call<T>(doing: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw explain(error, `${server}: ${doing}`);
    }
  }

  const createSecret = (secret: V1Secret, dryRun?: string) =>
    call(`creating Secret "${secret.metadata?.name}" in namespace "${namespaceOf(secret)}"`, () =>
      core.createNamespacedSecret({ namespace: namespaceOf(secret), body: secret, dryRun }),
    );
  const createJob = (job: V1Job, dryRun?: string) =>
    call(`creating Job "${job.metadata?.name}" in namespace "${namespaceOf(job)}"`, () =>
      batch.createNamespacedJob({ namespace: namespaceOf(job), body: job, dryRun }),
    );

  async function remove({ namespace, jobName, createdSecret }: SubmittedRun): Promise<void> {
    await ignoreMissing(() =>
      call(`deleting Job "${jobName}" in namespace "${namespace}"`, () =>
        batch.deleteNamespacedJob({ name: jobName, namespace, propagationPolicy: "Background" }),
      ),
    );
    if (createdSecret !== null) {
      await ignoreMissing(() =>
        call(`deleting Secret "${createdSecret}" in namespace "${namespace}"`, () =>
          core.deleteNamespacedSecret({ name: createdSecret, namespace }),
        ),
      );
    }
  }

  return {
    async dryRun({ job, secret }) {
      if (secret !== null) await createSecret(secret, "All");
      await createJob(job, "All");
    },

    async submit({ job, secret }) {
      const namespace = namespaceOf(job);
      const jobName = job.metadata?.name as string;
      if (secret === null) {
        await createJob(job);
        return { namespace, jobName, createdSecret: null };
      }
      // The Secret is owned by the Job, so the keys go with it whatever ends it (its TTL, a
      // kubectl delete, this process killed). An owner needs its uid: the Job comes first,
      // suspended until the Secret its pods read exists.
      const created = await createJob({ ...job, spec: { ...job.spec, suspend: true } } as V1Job);
      const run = { namespace, jobName, createdSecret: secret.metadata?.name as string };
      try {
        await createSecret({
          ...secret,
          metadata: { ...secret.metadata, ownerReferences: [ownerReference(created)] },
        });
        await call(`starting Job "${jobName}" in namespace "${namespace}"`, () =>
          batch.patchNamespacedJob(
            { name: jobName, namespace, body: { spec: { suspend: false } } },
            setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
          ),
        );
      } catch (error) {
        await remove(run);
        throw error;
      }
      return run;
    },

    async follow(
      { namespace, jobName },
      {
        onProgress,
        signal,
        pollMs = DEFAULT_FOLLOW_POLL_MS,
        outageLimitMs = DEFAULT_FOLLOW_OUTAGE_LIMIT_MS,
      } = {},
    ) {
      let last = "";
      let unansweredSince: number | null = null;
      for (;;) {
        const job = await call(`reading Job "${jobName}" in namespace "${namespace}"`, () =>
          batch.readNamespacedJob({ name: jobName, namespace }),
        ).catch((error: unknown) => {
          unansweredSince ??= Date.now();
          if (!isPassing(error) || Date.now() - unansweredSince > outageLimitMs) throw error;
          return null;
        });
        if (job !== null) {
          unansweredSince = null;
          const progress = jobProgress(job);
          const seen = JSON.stringify(progress);
          if (seen !== last) onProgress?.(progress);
          last = seen;
          if (progress.finished !== null) return progress;
        }
        if (signal?.aborted) throw signal.reason;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },

    async startProblems({ namespace, jobName }) {
      const [events, pods] = await Promise.all([
        call(`reading the events of Job "${jobName}" in namespace "${namespace}"`, () =>
          core.listNamespacedEvent({
            namespace,
            fieldSelector: `involvedObject.kind=Job,involvedObject.name=${jobName},reason=FailedCreate`,
          }),
        ),
        call(`reading the pods of Job "${jobName}" in namespace "${namespace}"`, () =>
          core.listNamespacedPod({ namespace, labelSelector: `job-name=${jobName}` }),
        ),
      ]);
      const newest = [...events.items].sort((a, b) => eventTimeMs(b) - eventTimeMs(a))[0];
      const refused = newest?.message ? [`pods refused: ${newest.message} (FailedCreate)`] : [];
      return [...new Set([...refused, ...pods.items.flatMap(podStartProblems)])];
    },

    remove,
  };
}

function eventTimeMs(event: CoreV1Event): number {
  const time = event.lastTimestamp ?? event.eventTime ?? event.metadata?.creationTimestamp;
  return time ? new Date(time).getTime() : 0;
}

/** A pending pod's reason not to run: unschedulable, or a container that cannot be made. */
function podStartProblems(pod: V1Pod): string[] {
  if (pod.status?.phase !== "Pending") return [];
  const unscheduled = (pod.status.conditions ?? []).find(
    (condition) => condition.type === "PodScheduled" && condition.status === "False",
  );
  const waiting = (pod.status.containerStatuses ?? []).flatMap((container) => {
    const reason = container.state?.waiting?.reason;
    return reason && reason !== "ContainerCreating"
      ? [`pods not started: ${container.state?.waiting?.message ?? reason} (${reason})`]
      : [];
  });
  return unscheduled?.message
    ? [
        `pods not scheduled: ${unscheduled.message} (${unscheduled.reason ?? "Unschedulable"})`,
        ...waiting,
      ]
    : waiting;
}

/** The Job as the owner of what it uses: deleting it deletes them (the garbage collector). */
function ownerReference(job: V1Job): V1OwnerReference {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    name: job.metadata?.name as string,
    uid: job.metadata?.uid as string,
  };
}

function namespaceOf(object: { metadata?: { namespace?: string } }): string {
  return object.metadata?.namespace ?? "default";
}

async function ignoreMissing(request: () => Promise<unknown>): Promise<void> {
  try {
    await request();
  } catch (error) {
    if (!(error instanceof KubernetesError && error.status === 404)) throw error;
  }
}

/** The apiserver's own Status message ("Job.batch "x" is invalid: spec…: …"), with context. */
function explain(error: unknown, doing: string): KubernetesError {
  if (error instanceof ApiException) {
    const status = apiStatus(error.body);
    const detail = status?.message ?? error.message;
    const reason = status?.reason ? ` ${status.reason}` : "";
    return new KubernetesError(`${doing}: ${detail} (HTTP ${error.code}${reason})`, error.code, {
      cause: error,
    });
  }
  const { code, message } = error as NodeJS.ErrnoException;
  return new KubernetesError(`${doing}: cannot reach the cluster (${code ?? message})`, 0, {
    cause: error,
  });
}

function apiStatus(body: unknown): { message?: string; reason?: string } | null {
  if (typeof body === "string") {
    try {
      return JSON.parse(body) as { message?: string; reason?: string };
    } catch {
      return null;
    }
  }
  return typeof body === "object" && body !== null ? (body as { message?: string }) : null;
}
