import {
  APP_FILES_SCHEMA_VERSION,
  KubernetesSettingsFileSchema,
  KubernetesSettingsSchema,
  type FieldError,
  type KubernetesSettings,
  type KubernetesSettingsFile,
} from "@taillab/api";
import { writeJsonAtomically } from "@taillab/store";
import { access } from "node:fs/promises";
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
      problems.push({ field: "kubeconfig", message: `no file at ${settings.kubeconfig}` });
    }
  }
  if (settings.namespace !== "" && !DNS_LABEL.test(settings.namespace)) {
    problems.push({
      field: "namespace",
      message: `"${settings.namespace}" is not a namespace name: lower-case letters, digits and '-', starting and ending with a letter or digit`,
    });
  }
  if (/\s/.test(settings.image)) {
    problems.push({
      field: "image",
      message: `"${settings.image}" is not an image reference such as registry/taillab:0.1.0`,
    });
  }
  return problems;
}
