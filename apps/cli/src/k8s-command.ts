import type { ShardsStatus } from "@taillab/api";
import {
  DEFAULT_ACTIVE_DEADLINE_SECONDS,
  DEFAULT_POD_SETTINGS,
  DEFAULT_TAILLAB_IMAGE,
  DEFAULT_TTL_AFTER_FINISHED_SECONDS,
  NoShardResultError,
} from "@taillab/backend";
import type * as KubernetesEntry from "@taillab/backend/kubernetes";
import type { KubernetesRunPlan, KubernetesRunRequest } from "@taillab/backend/kubernetes";
import { formatRunFolderUri } from "@taillab/core";
import {
  durationSecondsValue,
  flagNamed,
  flagValue,
  formatFlagHelp,
  parseArguments,
  textValue,
  UsageError,
  type FlagDefinition,
} from "./cli-args.ts";
import { EXIT } from "./exit-codes.ts";
import { stoppableByInterrupt } from "./interrupts.ts";
import {
  KEEP_RUN_FOLDER_FLAG,
  MERGED_EXIT_CODES_HELP,
  mergedExitCode,
  printMergedRun,
  runFolderText,
} from "./merge-command.ts";
import { createProgressDisplay } from "./progress-bar.ts";
import { openLibrary } from "./results-library.ts";
import { readSpecFlag } from "./run-command.ts";
import { cliSecrets, RUN_FLAGS, runNameFlag, type RunFlags } from "./run-flags.ts";
import { readSecretKeyFlag } from "./secret-key-flag.ts";
import { SHARD_FLAGS, startAtOf } from "./shard-flags.ts";
import { printError, printOut } from "./terminal-output.ts";

const pick = <Name extends string>(flags: readonly FlagDefinition[], names: readonly Name[]) =>
  flags.filter((flag) => (names as readonly string[]).includes(flag.name));

/** The settings of a Kubernetes run each flag of the table below sets (`pod.limits`). */
type K8sSettings = Omit<KubernetesRunRequest, "spec" | "shards" | "namespace" | "startAtMs">;
type SettingsField = Exclude<keyof K8sSettings, "pod"> | `pod.${keyof K8sSettings["pod"]}`;
type K8sFlagDefinition = FlagDefinition & { setting?: SettingsField };

const withSetting = <Flag extends FlagDefinition, Setting extends SettingsField>(
  flag: Flag,
  setting: Setting,
) => ({ ...flag, setting });

/**
 * `taillab k8s`'s flags: an entry with a `setting` is placed there by k8sSettingsOf, its value
 * read by its entry (default included), so such a flag needs no code beyond its entry.
 */
export const K8S_FLAGS = [
  {
    name: "shards",
    aliases: [],
    takesValue: true,
    description: "load generators: one pod each (an Indexed Job of N completions)",
  },
  {
    name: "namespace",
    aliases: ["n"],
    takesValue: true,
    description: "namespace (default: the kubeconfig context's, else default)",
  },
  {
    name: "kubeconfig",
    aliases: [],
    takesValue: true,
    description: "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)",
  },
  { name: "context", aliases: [], takesValue: true, description: "kubeconfig context" },
  {
    name: "image",
    aliases: [],
    takesValue: true,
    description: "TailLab image the pods run",
    value: { ...textValue(DEFAULT_TAILLAB_IMAGE), variable: "TAILLAB_IMAGE" },
    setting: "image",
  },
  {
    name: "secret",
    aliases: [],
    takesValue: true,
    description:
      "an existing Secret with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the pods (default: one is made from your credentials and deleted after)",
    value: textValue(undefined),
    setting: "secretName",
  },
  {
    name: "active-deadline",
    aliases: [],
    takesValue: true,
    description: "the Job's hard stop",
    value: durationSecondsValue(DEFAULT_ACTIVE_DEADLINE_SECONDS),
    setting: "activeDeadlineSeconds",
  },
  {
    name: "ttl",
    aliases: [],
    takesValue: true,
    description: "how long the finished Job, its pods and its Secret stay",
    value: durationSecondsValue(DEFAULT_TTL_AFTER_FINISHED_SECONDS),
    setting: "ttlSecondsAfterFinished",
  },
  {
    name: "requests",
    aliases: [],
    takesValue: true,
    description: "each pod's resource requests",
    value: textValue(DEFAULT_POD_SETTINGS.requests),
    setting: "pod.requests",
  },
  {
    name: "limits",
    aliases: [],
    takesValue: true,
    description: "each pod's resource limits; equal to the requests: Guaranteed QoS",
    value: textValue(DEFAULT_POD_SETTINGS.limits),
    setting: "pod.limits",
  },
  {
    name: "node-selector",
    aliases: [],
    takesValue: true,
    description: "node labels the pods need, e.g. disktype=ssd,pool=bench",
    value: textValue(DEFAULT_POD_SETTINGS.nodeSelector),
    setting: "pod.nodeSelector",
  },
  {
    name: "tolerations",
    aliases: [],
    takesValue: true,
    description:
      "taints the pods tolerate, KEY[=VALUE][:EFFECT],…, e.g. dedicated=bench:NoSchedule",
    value: textValue(DEFAULT_POD_SETTINGS.tolerations),
    setting: "pod.tolerations",
  },
  {
    name: "image-pull-secrets",
    aliases: [],
    takesValue: true,
    description: "Secrets to pull the image with, NAME,…",
    value: textValue(DEFAULT_POD_SETTINGS.imagePullSecrets),
    setting: "pod.imagePullSecrets",
  },
  {
    name: "spread",
    aliases: [],
    takesValue: true,
    description:
      "shards across nodes: prefer (balanced when the scheduler can), require (a pod waits rather than unbalance them) or none",
    value: textValue(DEFAULT_POD_SETTINGS.spread),
    setting: "pod.spread",
  },
  withSetting(flagNamed(SHARD_FLAGS, "barrier-timeout"), "barrierTimeoutMs"),
  withSetting(flagNamed(SHARD_FLAGS, "upload-records"), "uploadRecords"),
  {
    name: "start-at",
    aliases: [],
    takesValue: true,
    description:
      "the shards' earliest start (ISO 8601; default now): a manifest applied later needs one, as shards not ready by it plus the barrier timeout are missing",
  },
  ...pick(RUN_FLAGS, ["access-key", "secret-key", "secret-file", "results", "name", "json"]),
  KEEP_RUN_FOLDER_FLAG,
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const satisfies readonly K8sFlagDefinition[];

/** Every setting has its flag: one left out is a compile error here, not a run without it. */
type UnflaggedSetting = Exclude<
  SettingsField,
  Extract<(typeof K8S_FLAGS)[number], { setting: string }>["setting"]
>;
const everySettingFlagged: [UnflaggedSetting] extends [never] ? true : UnflaggedSetting = true;
void everySettingFlagged;

type K8sFlags = Partial<Record<string, string | true>>;

export const K8S_HELP = `Usage: taillab k8s run SPEC --shards N [flags]
       taillab k8s manifest SPEC --shards N [flags]

run: runs the spec file on N pods of a Kubernetes cluster, each a shard of one run: an Indexed
Job of the TailLab image (completions = parallelism = N), started together through a barrier in
the bucket under test, followed (pods ready, shards at the barrier, running, done, failed, and
the merged figures live), merged exactly into the results library at the end; the Job and the
Secret it made are deleted. Ctrl-C writes the run's stop marker and deletes the Job; what the
shards measured is merged. The spec's endpoint must be reachable from the pods.
manifest: prints the Secret (values left out) and the Job as YAML, for review or GitOps; on
stderr, by when they must be applied (--start-at plus the barrier timeout: give --start-at when
the review takes longer) and how to merge the run once its Job is done (taillab merge).

Flags:
${formatFlagHelp(K8S_FLAGS)}

${MERGED_EXIT_CODES_HELP}
`;

export async function k8sCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseArguments(argv, K8S_FLAGS);
  const [action, specPath, stray] = positionals;
  if (flags.help || action === undefined) {
    printOut(K8S_HELP);
    return EXIT.ok;
  }
  if (action !== "run" && action !== "manifest") {
    throw new UsageError("k8s", `unknown action "${action}"; expected run or manifest`);
  }
  if (specPath === undefined)
    throw new UsageError("spec", `expected a spec file: taillab k8s ${action} SPEC --shards N`);
  if (stray !== undefined) throw new UsageError("arguments", `unexpected "${stray}"`);
  const secretWarning = await readSecretKeyFlag(flags, "k8s");
  const spec = await readSpecFlag({ spec: specPath });
  const cluster = {
    ...(typeof flags.kubeconfig === "string" ? { kubeconfig: flags.kubeconfig } : {}),
    ...(typeof flags.context === "string" ? { context: flags.context } : {}),
  };
  const secrets = { env: { ...process.env, ...cliSecrets(flags as RunFlags) } };
  // Every flag is checked before the kubeconfig is read or the cluster asked anything.
  const fromFlags = k8sSettingsOf(flags);
  const startAt = flags["start-at"];
  const settings: Omit<KubernetesRunRequest, "namespace"> = {
    spec,
    shards: shardsOf(flags),
    ...fromFlags,
    ...(startAt !== undefined
      ? { startAtMs: startAtBeforeDeadline(startAt, fromFlags.barrierTimeoutMs) }
      : {}),
  };
  runNameFlag(flags);
  const request = (namespace: string): KubernetesRunRequest => ({ ...settings, namespace });
  const namespace = stringFlag(flags, "namespace");
  // The Kubernetes client loads only for this command: every other starts faster without it.
  const kubernetes = await import("@taillab/backend/kubernetes");
  printError(secretWarning);
  try {
    return await (action === "manifest"
      ? printManifests(kubernetes, request(namespace ?? namespaceOrDefault(kubernetes, cluster)))
      : runOnCluster(kubernetes, request(namespace ?? kubernetes.clusterNamespace(cluster)), {
          cluster,
          secrets,
          flags,
        }));
  } catch (error) {
    if (!(error instanceof kubernetes.KubernetesError)) throw error;
    printError(`taillab k8s: ${error.message.replace(/\s*\n\s*/g, "; ")}\n`);
    return EXIT.cluster;
  }
}

type KubernetesModule = typeof KubernetesEntry;

async function printManifests(
  { planKubernetesRun, manifestsYaml }: KubernetesModule,
  request: KubernetesRunRequest,
): Promise<number> {
  // Printing needs no cluster nor credentials: the Secret's values are left out.
  const plan = await planKubernetesRun(request, null);
  printOut(manifestsYaml(plan.manifests));
  printError(applyAdvice(plan, request.startAtMs !== undefined));
  return EXIT.ok;
}

/** What a user who applies the printed manifests must know: by when, and how the run ends. */
export function applyAdvice(
  { startAtMs, deadlineMs, folder, spec, manifests }: KubernetesRunPlan,
  startAtGiven: boolean,
): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const endpoint = spec.endpoints?.[0]?.url ?? "URL";
  const secret = manifests.secret
    ? `fill in the Secret's values (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), then `
    : "";
  const later = startAtGiven
    ? ""
    : " To apply later (a review, GitOps), print them again with --start-at (the earliest start) and a --barrier-timeout that covers the wait.";
  return (
    `taillab k8s manifest: ${secret}apply before ${iso(deadlineMs)}: shards not ready by then are missing and the run is aborted (the barrier's deadline: the start-at plus the barrier timeout); the shards start together at ${iso(startAtMs)} at the earliest.${later}\n` +
    `Once the Job is done, merge the run into the results library: taillab merge ${formatRunFolderUri(folder)} --endpoint ${endpoint}\n`
  );
}

async function runOnCluster(
  { planKubernetesRun, runOnKubernetes }: KubernetesModule,
  request: KubernetesRunRequest,
  {
    cluster,
    secrets,
    flags,
  }: {
    cluster: { kubeconfig?: string; context?: string };
    secrets: { env: Record<string, string | undefined> };
    flags: K8sFlags;
  },
): Promise<number> {
  const plan = await planKubernetesRun(request, secrets);
  const store = await openLibrary(flags.results, "write");
  const progress = createProgressDisplay(process.stderr);
  const say = (message: string) => {
    progress.clear();
    printError(`${message}\n`);
  };
  try {
    const outcome = await stoppableByInterrupt(
      async (signal) => {
        try {
          const { summary, runFolder } = await runOnKubernetes(plan, {
            cluster,
            secrets,
            store,
            ...runNameFlag(flags),
            ...(flags["keep-run-folder"] ? { keepRunFolder: true } : {}),
            hooks: {
              signal,
              onNotice: say,
              onShards: (status) => say(formatShardsStatus(status)),
              onProgress: (update) => progress.update(update),
            },
          });
          return { summary, runFolder, stopped: signal.aborted };
        } catch (error) {
          // Not bad input: the run was stopped before any shard started, or none could start.
          if (!(error instanceof NoShardResultError)) throw error;
          return { summary: null, stopped: signal.aborted, problem: error.message };
        }
      },
      () => "stopping: deleting the Job and merging what the shards measured…",
    );
    progress.clear();
    if (outcome.summary === null) {
      printError(`taillab k8s: ${outcome.problem}\n`);
      return outcome.stopped ? EXIT.interrupted : EXIT.shardGaveUp;
    }
    printMergedRun(outcome.summary, flags.json === true);
    // A folder left is a notice of the run, said already.
    if (outcome.runFolder.kind !== "left") {
      printError(runFolderText(formatRunFolderUri(plan.folder), outcome.runFolder));
    }
    return outcome.stopped ? EXIT.interrupted : mergedExitCode(outcome.summary);
  } finally {
    progress.clear();
  }
}

/** The context's namespace when there is a kubeconfig to read, else default. */
function namespaceOrDefault(
  { clusterNamespace, KubernetesError }: KubernetesModule,
  cluster: { kubeconfig?: string; context?: string },
): string {
  try {
    return clusterNamespace(cluster);
  } catch (error) {
    if (error instanceof KubernetesError) return "default";
    throw error;
  }
}

/** "shards: 4/4 pods ready, 4 at the barrier, 3 running, 1 done, 0 failed (Job running)" */
export function formatShardsStatus(status: ShardsStatus): string {
  const failed = status.failed.length > 0 ? ` (${status.failed.join(", ")})` : "";
  return (
    `shards: ${status.podsReady}/${status.shardCount} pods ready, ${status.ready.length} at the barrier, ` +
    `${status.running.length} running, ${status.done.length} done, ${status.failed.length} failed${failed}` +
    ` (Job ${status.job}${status.message ? `: ${status.message}` : ""})`
  );
}

/**
 * The run's settings the flags with a `setting` entry give, each placed where its entry says: its
 * value, else its default.
 */
export function k8sSettingsOf(
  flags: K8sFlags,
  env: Record<string, string | undefined> = process.env,
): K8sSettings {
  const settings: Record<string, unknown> = {};
  for (const flag of K8S_FLAGS) {
    if (!("setting" in flag)) continue;
    const value = flag.takesValue
      ? flagValue(K8S_FLAGS, flags, flag.name, env)
      : flags[flag.name] === true;
    if (value === undefined) continue;
    const [field = "", key] = flag.setting.split(".");
    settings[field] =
      key === undefined ? value : { ...(settings[field] as object | undefined), [key]: value };
  }
  return settings as unknown as K8sSettings;
}

function stringFlag(flags: K8sFlags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * `--start-at` of pods yet to be made. It may be past (a manifest applied after a review), but
 * not by more than the barrier timeout: shards made after that deadline find the run aborted.
 */
function startAtBeforeDeadline(text: string | true, barrierTimeoutMs: number): number {
  const startAtMs = startAtOf(text);
  if (startAtMs + barrierTimeoutMs <= Date.now()) {
    throw new UsageError(
      "start-at",
      `${String(text)} plus the barrier timeout (${barrierTimeoutMs / 1000} s) is already past: shards started now would find the run aborted; expected a later --start-at (ISO 8601) or a longer --barrier-timeout`,
    );
  }
  return startAtMs;
}

function shardsOf(flags: K8sFlags): number {
  const text = stringFlag(flags, "shards");
  if (text === undefined) throw new UsageError("shards", "how many pods? e.g. --shards 4");
  const shards = Number(text);
  if (!Number.isInteger(shards) || shards < 1) {
    throw new UsageError("shards", `expected a whole number of pods from 1, got "${text}"`);
  }
  return shards;
}
