import type { Experiment } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { errorText } from "../../shared/said.ts";

interface ExperimentsState {
  experiments: Experiment[];
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  upsert(experiment: Experiment): void;
  drop(experimentId: string): void;
}

export const useExperiments = create<ExperimentsState>((set, get) => ({
  experiments: [],
  loaded: false,
  error: null,

  async load() {
    try {
      set({ experiments: await api().listExperiments(), loaded: true, error: null });
    } catch (error) {
      set({ error: errorText(error) });
    }
  },

  upsert(experiment) {
    const { experiments } = get();
    const index = experiments.findIndex((known) => known.id === experiment.id);
    set({
      experiments:
        index === -1
          ? [...experiments, experiment]
          : experiments.map((known) => (known.id === experiment.id ? experiment : known)),
    });
  },

  drop(experimentId) {
    set({ experiments: get().experiments.filter((known) => known.id !== experimentId) });
  },
}));
