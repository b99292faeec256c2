import { visibleText } from "@taillab/core";
import { RequestModeSchema, type Experiment } from "@taillab/api";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { experimentsMessages } from "./messages.ts";

type Translate = ReturnType<typeof useTranslation<"experiments">>["t"];

/**
 * A built-in lab's name and description in the UI's language, by its id (the backend writes
 * them in English); an experiment someone saved, or a built-in this UI has no text for, keeps
 * the backend's.
 */
export function experimentText(
  experiment: Pick<Experiment, "id" | "builtIn" | "name" | "description">,
  t: Translate,
): { name: string; description: string } {
  if (!experiment.builtIn) return { name: experiment.name, description: experiment.description };
  return {
    name: t(`builtIns.${experiment.id}.name`, { defaultValue: experiment.name }),
    description: t(`builtIns.${experiment.id}.description`, {
      defaultValue: experiment.description,
    }),
  };
}

/** `experimentText` in the current language. */
export function useExperimentText(): (
  experiment: Pick<Experiment, "id" | "builtIn" | "name" | "description">,
) => { name: string; description: string } {
  const { t } = useTranslation("experiments");
  return (experiment) => experimentText(experiment, t);
}

/** The built-ins' names as the backend writes them (English), by id. */
const BUILT_IN_NAMES = Object.entries(
  experimentsMessages.en.builtIns as Record<string, { name: string }>,
).map(([id, text]) => ({ id, name: text.name }));

/**
 * A stored run's name in the UI's language when it is a built-in lab's (runs take their
 * experiment's name, a mode series' with the mode after it: "Tail latency … (hedged)"); any
 * other name, one a person gave, as it is.
 */
export function runNameText(name: string, t: Translate): string {
  for (const builtIn of BUILT_IN_NAMES) {
    const local = t(`builtIns.${builtIn.id}.name`);
    // In English the backend's name is the UI's already.
    if (local === builtIn.name || name === builtIn.name)
      return local === builtIn.name ? name : local;
    const mode = RequestModeSchema.options.find((known) => name === `${builtIn.name} (${known})`);
    if (mode) return t("list.runOfMode", { name: local, mode: t(`mode.${mode}`) });
  }
  return name;
}

/** `runNameText` in the current language. */
export function useRunNameText(): (name: string) => string {
  const { t } = useTranslation("experiments");
  // Stable until the language changes, so memos that name runs can depend on it.
  return useCallback((name: string) => visibleText(runNameText(name, t)), [t]);
}

/** Whether a stored run's name is a built-in lab's as the backend writes it (a series' too). */
export function isBuiltInLabName(name: string): boolean {
  return BUILT_IN_NAMES.some(
    (builtIn) =>
      name === builtIn.name ||
      RequestModeSchema.options.some((mode) => name === `${builtIn.name} (${mode})`),
  );
}
