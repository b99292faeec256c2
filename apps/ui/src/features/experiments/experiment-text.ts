import type { Experiment } from "@taillab/api";
import { useTranslation } from "react-i18next";

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
