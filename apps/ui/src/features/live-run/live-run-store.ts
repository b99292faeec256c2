import type { LiveTuning, LiveTuningInput, RunEvent } from "@taillab/api";
import { create } from "zustand";
import { api, hasBackend } from "../../app/api.ts";
import type { RateKind } from "@taillab/report";
import { errorText } from "../../shared/said.ts";
import {
  adoptActiveRun,
  IDLE_RUN,
  reduceRunEvent,
  withMarker,
  withNotice,
  type LiveRunState,
} from "./live-run-state.ts";

/** What the live chart draws of each second: its percentiles, or one of its rates. */
export type LiveChart = "latency" | RateKind;

interface LiveRunStore extends LiveRunState {
  /** The timeline's y axis: log shows a 1 s stall next to 5 ms requests. */
  logScale: boolean;
  setLogScale(logScale: boolean): void;
  /** Kept here, not in the chart, so it stays when the lab's layout gives way to the run's. */
  chart: LiveChart;
  setChart(chart: LiveChart): void;
  apply(event: RunEvent): void;
  /** startRun answered: show the run as starting until its first event. */
  runRequested(runId: string, name: string): void;
  stop(): Promise<void>;
  /** A live session's knobs: shown at once, applied by the backend, marked on the timeline. */
  retune(change: Partial<LiveTuningInput>): Promise<void>;
  /** Knobs the backend has not answered yet (the controls show them as asked). */
  retuning: Partial<LiveTuning> | null;
  /** Follows the backend's run events; returns the unsubscribe. */
  connect(): () => void;
}

export const useLiveRun = create<LiveRunStore>((set, get) => ({
  ...IDLE_RUN,
  logScale: false,
  setLogScale: (logScale) => set({ logScale }),
  chart: "latency",
  setChart: (chart) => set({ chart }),

  apply(event) {
    set((state) => reduceRunEvent(state, event));
  },

  runRequested(runId, name) {
    // Its "started" event may have come before startRun's answer.
    if (get().runId === runId) return;
    set({ ...IDLE_RUN, status: "starting", runId, name });
  },

  retuning: null,

  async retune(change) {
    const { runId, status } = get();
    if (runId === null || status !== "running") return;
    set({ retuning: { ...get().retuning, ...(change as Partial<LiveTuning>) } });
    try {
      const marker = await api().retuneRun({ runId, tuning: change });
      set((state) => ({ ...withMarker(state, marker), retuning: null }));
    } catch (error) {
      set({ retuning: null, notices: withNotice(get().notices, errorText(error)) });
    }
  },

  async stop() {
    const { runId, status } = get();
    if (runId === null || (status !== "running" && status !== "starting")) return;
    set({ stopping: true });
    try {
      await api().stopRun({ runId });
    } catch (error) {
      set({ stopping: false, notices: withNotice(get().notices, errorText(error)) });
    }
  },

  connect() {
    if (!hasBackend()) return () => undefined;
    const unsubscribe = api().onRunEvent((event) => get().apply(event));
    api()
      .activeRun()
      .then((active) => {
        if (active) set((state) => adoptActiveRun(state, active, Date.now()));
      })
      .catch(() => {
        // No run to join; the events will bring the next one.
      });
    return unsubscribe;
  },
}));

/** True while a run is under way (the stop shortcut and the nav's indicator). */
export function isRunActive(state: LiveRunState): boolean {
  return state.status === "running" || state.status === "starting";
}
