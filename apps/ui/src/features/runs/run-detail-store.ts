import type {
  Operation,
  PointSummary,
  RunCleanup,
  RunDetail,
  RunIndexEntry,
  RunOrigin,
} from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { errorText } from "../../shared/said.ts";

/** The point and phase the detail screen's charts show. */
export interface PhaseChoice {
  pointIndex: number;
  op: Operation;
}

interface RunDetailState {
  runId: string | null;
  detail: RunDetail | null;
  loading: boolean;
  error: string | null;
  choice: PhaseChoice | null;
  /** Its endpoint and experiment, once known; null while asked or when the host cannot say. */
  origin: RunOrigin | null;
  /** Removing what the shown run left on its server: under way, its outcome, or why it failed. */
  leftovers: { removing: boolean; result: RunCleanup | null; error: string | null };

  load(runId: string): Promise<void>;
  choose(choice: PhaseChoice): void;
  /** Choose a point of a sweep, keeping the operation when that point has it. */
  choosePoint(pointIndex: number): void;
  /** A rename, tag or note saved from either screen: the header shows it at once. */
  applyEntry(entry: RunIndexEntry): void;
  /** Removes what the shown run left on its server, then shows the run as it is now. */
  removeLeftovers(): Promise<void>;
}

const NO_LEFTOVER_WORK = { removing: false, result: null, error: null };

/**
 * The phase to open on: the first with answered requests that is not the cleanup (DELETE), which
 * is rarely what a tail-latency question is about; the cleanup when it is all there is.
 */
function defaultOp(point: PointSummary | undefined): Operation | null {
  const phases = point?.phases ?? [];
  const measured = phases.filter((phase) => phase.requests > 0);
  const main = measured.find((phase) => phase.op !== "DELETE");
  return (main ?? measured[0] ?? phases[0])?.op ?? null;
}

export const useRunDetail = create<RunDetailState>((set, get) => ({
  runId: null,
  detail: null,
  loading: false,
  error: null,
  choice: null,
  origin: null,
  leftovers: NO_LEFTOVER_WORK,

  async load(runId) {
    // Keep the shown run while the same one reloads; another run starts from a clean screen.
    const same = get().runId === runId;
    set({
      runId,
      loading: true,
      error: null,
      ...(same ? {} : { detail: null, choice: null, origin: null, leftovers: NO_LEFTOVER_WORK }),
    });
    // Where it came from only adds "run again" and a link: the screen does not wait for it.
    api()
      .runOrigin({ runId })
      .then(
        (origin) => {
          if (get().runId === runId) set({ origin });
        },
        () => undefined,
      );
    try {
      const detail = await api().getRun({ runId });
      if (get().runId !== runId) return;
      const previous = get().choice;
      const keep =
        previous &&
        detail.summary.points[previous.pointIndex]?.phases.some(
          (phase) => phase.op === previous.op,
        );
      const op = defaultOp(detail.summary.points[0]);
      set({
        detail,
        loading: false,
        choice: keep ? previous : op ? { pointIndex: 0, op } : null,
      });
    } catch (error) {
      if (get().runId !== runId) return;
      set({ loading: false, error: errorText(error) });
    }
  },
  choose: (choice) => set({ choice }),
  choosePoint(pointIndex) {
    const { detail, choice } = get();
    const point = detail?.summary.points[pointIndex];
    if (!point) return;
    const op = point.phases.some((phase) => phase.op === choice?.op)
      ? (choice?.op as Operation)
      : defaultOp(point);
    if (op) set({ choice: { pointIndex, op } });
  },
  async removeLeftovers() {
    const { runId } = get();
    if (runId === null || get().leftovers.removing) return;
    set({ leftovers: { removing: true, result: null, error: null } });
    try {
      const result = await api().cleanupRun({ runId });
      if (get().runId !== runId) return;
      set({ leftovers: { removing: false, result, error: null } });
      await get().load(runId);
    } catch (error) {
      if (get().runId !== runId) return;
      set({ leftovers: { removing: false, result: null, error: errorText(error) } });
    }
  },
  applyEntry(entry) {
    const detail = get().detail;
    if (!detail || detail.meta.id !== entry.id) return;
    set({
      detail: {
        ...detail,
        meta: { ...detail.meta, name: entry.name, tags: entry.tags, notes: entry.notes },
      },
    });
  },
}));
