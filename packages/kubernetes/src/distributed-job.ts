/**
 * The Kubernetes objects of a distributed run (pure): an Indexed Job of N TailLab shards and, when
 * TailLab brings the storage credentials itself, the Secret that holds them. Why each field is
 * set as it is: ../../../shared/docs/KUBERNETES.md.
 */
import type { V1Job, V1PodSpec, V1Secret, V1Toleration } from "@kubernetes/client-node";

/** Where and how the pods run: what a cluster's admin asks of any workload. */
export interface PodSettings {
  /** The shard container's requests, e.g. { cpu: "1", memory: "512Mi" }. */
  requests: Readonly<Record<string, string>>;
  /** Its limits; a ResourceQuota on limits refuses pods without them. */
  limits: Readonly<Record<string, string>>;
  nodeSelector: Readonly<Record<string, string>>;
  tolerations: readonly V1Toleration[];
  /** Secrets to pull the image from a private registry. */
  imagePullSecrets: readonly string[];
  /**
   * Shards across nodes (load generators sharing a node measure its network card, not the
   * server): "prefer" balances them when it can, "require" leaves a pod Pending rather than put
   * more shards on a node than on another plus one, "none" lets the scheduler choose.
   */
  spread: "prefer" | "require" | "none";
}

export interface DistributedJobInput {
  /** The Job's name, a DNS label; pods are `<name>-<index>`. */
  name: string;
  namespace: string;
  /** N: completions = parallelism = N, one pod per shard. */
  shards: number;
  /** The TailLab image, e.g. "ghcr.io/example/taillab:0.1.0" (a flag and a setting). */
  image: string;
  /** The arguments every shard shares (e.g. ["run", "--spec", "…"]); the shard's own follow. */
  runArgs: readonly string[];
  /** Where shards meet and leave their results: s3://bucket/prefix/. */
  resultsUri: string;
  /** The earliest start, the same for every shard (ISO 8601). */
  startAt: string;
  /** A hard stop for the whole Job. */
  activeDeadlineSeconds: number;
  /** The Job and its pods are deleted this long after it finished. */
  ttlSecondsAfterFinished: number;
  /**
   * The storage credentials: a Secret this run creates (named `<name>-credentials`), or an
   * existing one by name. Either holds the keys AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
   */
  credentials:
    | { kind: "create"; accessKeyId: string; secretAccessKey: string }
    | { kind: "existing"; secretName: string };
  pod: PodSettings;
  /** Extra labels on the Job and its pods. */
  labels?: Readonly<Record<string, string>>;
}

export interface DistributedRunManifests {
  job: V1Job;
  /** Null when the credentials are an existing Secret. */
  secret: V1Secret | null;
}

/** The pod template annotation holding the start time; pods read it through the downward API. */
export const START_AT_ANNOTATION = "taillab.io/start-at";
/** What every object of one run carries, to find and delete them together. */
export const RUN_LABEL = "taillab.io/run";
/** A shard exits with this when it must not be retried (barrier failed, duplicate index). */
export const SHARD_GAVE_UP_EXIT_CODE = 3;
export const CREDENTIAL_KEYS = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] as const;

const CONTAINER = "taillab";
/**
 * The image's user (node:24-slim's "node"), by number: the kubelet can prove only a numeric user
 * is not root, which runAsNonRoot (restricted Pod Security) asks.
 */
export const IMAGE_USER_ID = 1000;
/** The only writable folder: the root file system is read-only. */
const TMP_VOLUME = "tmp";

export function credentialsSecretName(input: Pick<DistributedJobInput, "name" | "credentials">) {
  return input.credentials.kind === "existing"
    ? input.credentials.secretName
    : `${input.name}-credentials`;
}

export function distributedRunManifests(input: DistributedJobInput): DistributedRunManifests {
  const labels = {
    "app.kubernetes.io/name": "taillab",
    "app.kubernetes.io/component": "load-generator",
    [RUN_LABEL]: input.name,
    ...input.labels,
  };
  const secretName = credentialsSecretName(input);
  const job: V1Job = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: input.name, namespace: input.namespace, labels },
    spec: {
      completionMode: "Indexed",
      completions: input.shards,
      // No gang scheduling: parallelism is only a maximum, so the barrier has a deadline, and
      // anything below completions would deadlock it.
      parallelism: input.shards,
      // A retried index comes back ≥ 10 s later, useless for a synchronised start.
      backoffLimitPerIndex: 0,
      maxFailedIndexes: input.shards,
      podReplacementPolicy: "Failed",
      podFailurePolicy: {
        rules: [
          {
            action: "FailIndex",
            onExitCodes: {
              containerName: CONTAINER,
              operator: "In",
              values: [SHARD_GAVE_UP_EXIT_CODE],
            },
          },
          // An evicted or preempted pod is not the shard's fault.
          { action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] },
        ],
      },
      activeDeadlineSeconds: input.activeDeadlineSeconds,
      ttlSecondsAfterFinished: input.ttlSecondsAfterFinished,
      template: {
        // The downward API reads the pod's annotations, not the Job's.
        metadata: { labels, annotations: { [START_AT_ANNOTATION]: input.startAt } },
        spec: {
          restartPolicy: "Never",
          // A shard never calls the Kubernetes API: no token to steal from it.
          automountServiceAccountToken: false,
          // Nor does it look for Services in its environment: a busy namespace's are many.
          enableServiceLinks: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: IMAGE_USER_ID,
            runAsGroup: IMAGE_USER_ID,
            seccompProfile: { type: "RuntimeDefault" },
          },
          ...podPlacement(input.pod, { [RUN_LABEL]: input.name }),
          volumes: [{ name: TMP_VOLUME, emptyDir: { sizeLimit: "64Mi" } }],
          containers: [
            {
              name: CONTAINER,
              image: input.image,
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ["ALL"] },
              },
              resources: { requests: { ...input.pod.requests }, limits: { ...input.pod.limits } },
              volumeMounts: [{ name: TMP_VOLUME, mountPath: "/tmp" }],
              args: [
                ...input.runArgs,
                "--shard",
                // Kubernetes appends JOB_COMPLETION_INDEX to the env, so only args can expand it.
                `$(JOB_COMPLETION_INDEX)/${input.shards}`,
                "--start-at",
                "$(TAILLAB_START_AT)",
                "--results",
                input.resultsUri,
              ],
              env: [
                {
                  name: "TAILLAB_START_AT",
                  valueFrom: {
                    fieldRef: { fieldPath: `metadata.annotations['${START_AT_ANNOTATION}']` },
                  },
                },
                ...CREDENTIAL_KEYS.map((key) => ({
                  name: key,
                  valueFrom: { secretKeyRef: { name: secretName, key } },
                })),
              ],
            },
          ],
        },
      },
    },
  };
  const secret: V1Secret | null =
    input.credentials.kind === "create"
      ? {
          apiVersion: "v1",
          kind: "Secret",
          metadata: { name: secretName, namespace: input.namespace, labels },
          type: "Opaque",
          stringData: {
            AWS_ACCESS_KEY_ID: input.credentials.accessKeyId,
            AWS_SECRET_ACCESS_KEY: input.credentials.secretAccessKey,
          },
        }
      : null;
  return { job, secret };
}

/** The pod spec's node selector, tolerations, pull secrets and spread; unset ones left out. */
function podPlacement(pod: PodSettings, runLabels: Record<string, string>): Partial<V1PodSpec> {
  return {
    ...(Object.keys(pod.nodeSelector).length > 0 ? { nodeSelector: { ...pod.nodeSelector } } : {}),
    ...(pod.tolerations.length > 0 ? { tolerations: [...pod.tolerations] } : {}),
    ...(pod.imagePullSecrets.length > 0
      ? { imagePullSecrets: pod.imagePullSecrets.map((name) => ({ name })) }
      : {}),
    ...(pod.spread === "none"
      ? {}
      : {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: "kubernetes.io/hostname",
              whenUnsatisfiable: pod.spread === "require" ? "DoNotSchedule" : "ScheduleAnyway",
              labelSelector: { matchLabels: runLabels },
            },
          ],
        }),
  };
}
