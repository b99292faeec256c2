import type { RunIndexEntry } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { errorText } from "../../shared/said.ts";
import { keepLibraryLayout, loadLibraryLayout, type LibraryLayout } from "./library-layout.ts";
import { useRunDetail } from "./run-detail-store.ts";
import { NO_FILTER, type RunFilter, type RunSort } from "./run-filter.ts";

interface RunsState extends LibraryLayout {
  runs: RunIndexEntry[];
  loading: boolean;
  /** Why the list (or the last change to a run) failed, for a banner. */
  error: string | null;
  filter: RunFilter;
  /** Runs ticked for comparing or exporting, in the order they were ticked. */
  selected: string[];
  /** The runs the last delete moved to the trash, until it is undone or another one comes. */
  removed: string[];

  load(): Promise<void>;
  setFilter(change: Partial<RunFilter>): void;
  clearFilter(): void;
  setSort(sort: RunSort): void;
  setCompact(compact: boolean): void;
  toggleSelected(runId: string): void;
  setSelected(runIds: string[]): void;
  rename(runId: string, name: string): Promise<boolean>;
  addTag(runId: string, tag: string): Promise<boolean>;
  removeTag(runId: string, tag: string): Promise<boolean>;
  setNotes(runId: string, notes: string): Promise<boolean>;
  /** Moves the run to the library's trash (see removeMany). */
  remove(runId: string): Promise<boolean>;
  /** Moves runs to the library's trash, one by one; the ones that went can be brought back. */
  removeMany(runIds: readonly string[]): Promise<boolean>;
  /** Brings the last delete's runs back from the trash. */
  undoRemove(): Promise<boolean>;
  dismissRemoved(): void;
  dismissError(): void;
}

/** The results library: the runs index, the search over it, and the edits a user makes to runs. */
export const useRuns = create<RunsState>((set, get) => {
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

  const layOut = (change: Partial<LibraryLayout>) => {
    set(change);
    const { sort, filter, compact } = get();
    keepLibraryLayout({ sort, filter, compact });
  };

  return {
    runs: [],
    loading: false,
    error: null,
    selected: [],
    removed: [],
    ...loadLibraryLayout(),

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
          // A tag no run carries any more cannot stay chosen either.
          filter:
            state.filter.tag !== null &&
            !runs.some((run) => run.tags.includes(state.filter.tag as string))
              ? { ...state.filter, tag: null }
              : state.filter,
        }));
      } catch (error) {
        set({ loading: false, error: errorText(error) });
      }
    },
    setFilter: (change) => layOut({ filter: { ...get().filter, ...change } }),
    clearFilter: () => layOut({ filter: NO_FILTER }),
    setSort: (sort) => layOut({ sort }),
    setCompact: (compact) => layOut({ compact }),
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
    remove: (runId) => get().removeMany([runId]),
    async removeMany(runIds) {
      const gone: string[] = [];
      let failure: unknown = null;
      for (const runId of runIds) {
        try {
          await api().removeRun({ runId });
          gone.push(runId);
        } catch (error) {
          failure = error;
          break;
        }
      }
      set((state) => ({
        runs: state.runs.filter((run) => !gone.includes(run.id)),
        selected: state.selected.filter((id) => !gone.includes(id)),
        removed: gone,
        error: failure === null ? null : errorText(failure),
      }));
      return failure === null;
    },
    async undoRemove() {
      const { removed } = get();
      set({ removed: [] });
      try {
        for (const runId of removed) await api().restoreRun({ runId });
        return true;
      } catch (error) {
        set({ error: errorText(error) });
        return false;
      } finally {
        await get().load();
      }
    },
    dismissRemoved: () => set({ removed: [] }),
    dismissError: () => set({ error: null }),
  };
});
