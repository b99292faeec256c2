import {
  APP_FILES_SCHEMA_VERSION,
  coded,
  fieldError,
  KubernetesSettingsFileSchema,
  parseDuration,
  KubernetesSettingsSchema,
  type FieldError,
  type KubernetesSettings,
  type KubernetesSettingsFile,
} from "@taillab/api";
import { writeJsonAtomically } from "@taillab/store";
import { access } from "node:fs/promises";
import { parsePodSettings } from "../distributed/pod-settings-text.ts";
import { InputError } from "../input-error.ts";
import { createTaskQueue } from "./task-queue.ts";
import { readVersionedFile } from "./versioned-file.ts";

/** Where the app sends distributed runs (kubernetes.json, replaced atomically on a change). */
export interface KubernetesSettingsStore {
  get(): KubernetesSettings;
  /** Checks the settings (a kubeconfig that exists, a namespace Kubernetes accepts), then saves. */
  save(settings: KubernetesSettings): Promise<KubernetesSettings>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export async function openKubernetesSettings(path: string): Promise<KubernetesSettingsStore> {
  const file = await readVersionedFile(
    path,
    KubernetesSettingsFileSchema,
    APP_FILES_SCHEMA_VERSION,
  );
  let settings = file?.settings ?? KubernetesSettingsSchema.parse({});
  const inTurn = createTaskQueue();
  return {
    get: () => settings,
    save: (next) =>
      inTurn(async () => {
        const problems = await settingsProblems(next);
        if (problems.length > 0) throw new InputError(problems);
        await writeJsonAtomically(path, {
          schemaVersion: APP_FILES_SCHEMA_VERSION,
          settings: next,
        } satisfies KubernetesSettingsFile);
        settings = next;
        return next;
      }),
  };
}

async function settingsProblems(settings: KubernetesSettings): Promise<FieldError[]> {
  const problems: FieldError[] = [];
  if (settings.kubeconfig !== "") {
    try {
      await access(settings.kubeconfig);
    } catch {
      problems.push(
        fieldError("kubeconfig", coded("kubeconfigMissing", { file: settings.kubeconfig })),
      );
    }
  }
  if (settings.namespace !== "" && !DNS_LABEL.test(settings.namespace)) {
    problems.push(fieldError("namespace", coded("namespaceInvalid", { name: settings.namespace })));
  }
  if (/\s/.test(settings.image)) {
    problems.push(fieldError("image", coded("imageInvalid", { image: settings.image })));
  }
  problems.push(...podSettingProblems(settings));
  if (settings.ttl !== "") {
    const ttl = parseDuration(settings.ttl);
    if (!ttl.ok) problems.push(fieldError("ttl", ttl.reason));
  }
  return problems;
}

const SETTING_EXAMPLES = {
  requests: "cpu=1,memory=1Gi",
  limits: "cpu=1,memory=1Gi",
  nodeSelector: "disktype=ssd",
  tolerations: "dedicated=bench:NoSchedule",
} as const;

/** The pods' settings in the forms `taillab k8s run` takes (the values are checked at a run). */
function podSettingProblems(settings: KubernetesSettings): FieldError[] {
  const { problems } = parsePodSettings({ ...settings, spread: settings.spread || "prefer" });
  const fields = new Set(problems.map((problem) => problem.field));
  const found = Object.entries(SETTING_EXAMPLES)
    .filter(([field]) => fields.has(field))
    .map(([field, example]) =>
      fieldError(
        field,
        coded("podSettingInvalid", {
          value: settings[field as keyof typeof SETTING_EXAMPLES],
          example,
        }),
      ),
    );
  if (!["", "prefer", "require", "none"].includes(settings.spread)) {
    found.push(fieldError("spread", coded("spreadInvalid", { value: settings.spread })));
  }
  return found;
}
