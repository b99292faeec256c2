import {
  APP_FILES_SCHEMA_VERSION,
  coded,
  ExperimentsFileSchema,
  type Experiment,
  type ExperimentDraft,
  type ExperimentsFile,
} from "@taillab/api";
import { writeJsonAtomically } from "@taillab/store";
import { randomBytes } from "node:crypto";
import { InputError } from "../input-error.ts";
import { BUILT_IN_EXPERIMENTS, isBuiltInExperiment } from "./built-in-experiments.ts";
import { createTaskQueue } from "./task-queue.ts";
import { readVersionedFile } from "./versioned-file.ts";

/**
 * The built-in experiments, then the saved ones from experiments.json (replaced atomically on
 * every change). A draft is saved as typed, mistakes and all, to be fixed later: preview and
 * run name its bad fields.
 */
export interface ExperimentsStore {
  list(): Experiment[];
  /** Creates an experiment without `experimentId`, else replaces that saved one. */
  save(experimentId: string | undefined, draft: ExperimentDraft): Promise<Experiment>;
  remove(experimentId: string): Promise<void>;
}

export async function openExperimentsStore(path: string): Promise<ExperimentsStore> {
  const file = await readVersionedFile(path, ExperimentsFileSchema, APP_FILES_SCHEMA_VERSION);
  let saved = file?.experiments ?? [];
  const inTurn = createTaskQueue();
  const save = async (next: Experiment[]) => {
    await writeJsonAtomically(path, {
      schemaVersion: APP_FILES_SCHEMA_VERSION,
      experiments: next,
    } satisfies ExperimentsFile);
    saved = next;
  };
  const requireSaved = (id: string) => {
    if (isBuiltInExperiment(id)) throw InputError.of("experimentId", coded("builtInIsFixed"));
    if (!saved.some((experiment) => experiment.id === id)) {
      throw InputError.of("experimentId", coded("noSavedExperiment", { id }));
    }
  };

  return {
    list: () => [...BUILT_IN_EXPERIMENTS, ...saved],
    save: (experimentId, draft) =>
      inTurn(async () => {
        if (experimentId !== undefined) requireSaved(experimentId);
        const experiment: Experiment = {
          ...draft,
          id: experimentId ?? `exp-${randomBytes(6).toString("hex")}`,
          builtIn: false,
          updatedAt: new Date().toISOString(),
        };
        await save(
          experimentId === undefined
            ? [...saved, experiment]
            : saved.map((other) => (other.id === experimentId ? experiment : other)),
        );
        return experiment;
      }),
    remove: (experimentId) =>
      inTurn(async () => {
        requireSaved(experimentId);
        await save(saved.filter((experiment) => experiment.id !== experimentId));
      }),
  };
}
