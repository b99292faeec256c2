import type { RunDetail } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { errorText } from "../../shared/said.ts";
import { defaultBaseline } from "./compare-model.ts";

interface CompareState {
  /** The runs the route asks for, in its order. */
  runIds: string[];
  details: Record<string, RunDetail>;
  /** Runs that could not be loaded (deleted, unreadable), with the reason. */
  errors: Record<string, string>;
  loading: boolean;
  baselineId: string | null;
  /** The point and phase compared (see compare-model's rowKey); null: the default one. */
  rowKey: string | null;

  load(runIds: readonly string[]): Promise<void>;
  setBaseline(runId: string): void;
  setRowKey(key: string): void;
}

/**
 * The compare screen's runs: each one's stored detail, fetched again whenever the screen asks
 * (names and tags may have changed since), the baseline and the compared phase.
 */
export const useCompare = create<CompareState>((set, get) => ({
  runIds: [],
  details: {},
  errors: {},
  loading: false,
  baselineId: null,
  rowKey: null,

  async load(runIds) {
    const wanted = [...runIds];
    set({ runIds: wanted, loading: wanted.length > 0 });
    const answers = await Promise.all(
      wanted.map(async (runId) => {
        try {
          return { runId, detail: await api().getRun({ runId }), error: null };
        } catch (error) {
          return { runId, detail: null, error: errorText(error) };
        }
      }),
    );
    // A newer request for other runs has started meanwhile: its answer wins.
    if (get().runIds.join("\n") !== wanted.join("\n")) return;
    const details: Record<string, RunDetail> = {};
    const errors: Record<string, string> = {};
    for (const answer of answers) {
      if (answer.detail) details[answer.runId] = answer.detail;
      else if (answer.error) errors[answer.runId] = answer.error;
    }
    const loaded = wanted.filter((runId) => details[runId]);
    const baselineId = get().baselineId;
    set({
      details,
      errors,
      loading: false,
      baselineId:
        baselineId && loaded.includes(baselineId)
          ? baselineId
          : defaultBaseline(
              loaded.map((runId) => ({
                runId,
                mode: (details[runId] as RunDetail).summary.mode,
              })),
            ),
    });
  },
  setBaseline: (baselineId) => set({ baselineId }),
  setRowKey: (rowKey) => set({ rowKey }),
}));
