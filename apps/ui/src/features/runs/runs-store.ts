import type { RunIndexEntry } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { errorText } from "../../shared/said.ts";
import { useRunDetail } from "./run-detail-store.ts";

interface RunsState {
  runs: RunIndexEntry[];
  loading: boolean;
  /** Why the list (or the last change to a run) failed, for a banner. */
  error: string | null;
  query: string;
  tag: string | null;
  /** Runs ticked for comparing or exporting, in the order they were ticked. */
  selected: string[];

  load(): Promise<void>;
  setQuery(query: string): void;
  setTag(tag: string | null): void;
  toggleSelected(runId: string): void;
  setSelected(runIds: string[]): void;
  rename(runId: string, name: string): Promise<boolean>;
  addTag(runId: string, tag: string): Promise<boolean>;
  removeTag(runId: string, tag: string): Promise<boolean>;
  setNotes(runId: string, notes: string): Promise<boolean>;
  remove(runId: string): Promise<boolean>;
  dismissError(): void;
}

/** The results library: the runs index, the search over it, and the edits a user makes to runs. */
export const useRuns = create<RunsState>((set) => {
  /**
   * One edit of a run: the backend answers with the run's new index line, which replaces the old
   * one here and in the detail screen if it shows that run. False (and a banner) when it failed.
   */
  const edit = async (change: () => Promise<RunIndexEntry>): Promise<boolean> => {
    try {
      const entry = await change();
      set((state) => ({
        runs: state.runs.map((run) => (run.id === entry.id ? entry : run)),
        error: null,
      }));
      useRunDetail.getState().applyEntry(entry);
      return true;
    } catch (error) {
      set({ error: errorText(error) });
      return false;
    }
  };

  return {
    runs: [],
    loading: false,
    error: null,
    query: "",
    tag: null,
    selected: [],

    async load() {
      set({ loading: true });
      try {
        const runs = await api().listRuns();
        const known = new Set(runs.map((run) => run.id));
        set((state) => ({
          runs,
          loading: false,
          error: null,
          // A run deleted elsewhere (another window, the CLI) cannot stay ticked.
          selected: state.selected.filter((runId) => known.has(runId)),
          tag:
            state.tag !== null && runs.some((run) => run.tags.includes(state.tag as string))
              ? state.tag
              : null,
        }));
      } catch (error) {
        set({ loading: false, error: errorText(error) });
      }
    },
    setQuery: (query) => set({ query }),
    setTag: (tag) => set({ tag }),
    toggleSelected: (runId) =>
      set((state) => ({
        selected: state.selected.includes(runId)
          ? state.selected.filter((id) => id !== runId)
          : [...state.selected, runId],
      })),
    setSelected: (runIds) => set({ selected: [...runIds] }),
    rename: (runId, name) => edit(() => api().renameRun({ runId, name })),
    addTag: (runId, tag) => edit(() => api().tagRun({ runId, tag })),
    removeTag: (runId, tag) => edit(() => api().untagRun({ runId, tag })),
    setNotes: (runId, notes) => edit(() => api().annotateRun({ runId, notes })),
    async remove(runId) {
      try {
        await api().removeRun({ runId });
        set((state) => ({
          runs: state.runs.filter((run) => run.id !== runId),
          selected: state.selected.filter((id) => id !== runId),
          error: null,
        }));
        return true;
      } catch (error) {
        set({ error: errorText(error) });
        return false;
      }
    },
    dismissError: () => set({ error: null }),
  };
});
