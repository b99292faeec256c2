import type { Experiment } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { useNavigation } from "../../app/navigation-store.ts";
import { errorText } from "../../shared/said.ts";
import { useLiveRun } from "../live-run/live-run-store.ts";
import { canCompareModes } from "../live-run/live-status.ts";

/** What of the walkthrough outlives leaving the screen and reloading the page. */
interface KeptGuide {
  open: boolean;
  step: number;
  /** The first run of the lab the guide started; the series' runs once it has finished. */
  labRunId: string | null;
  labRunIds: string[];
}

interface GuideState extends KeptGuide {
  /** Why the guide could not start a lab; null when it could. */
  error: string | null;
  show(): void;
  close(): void;
  goTo(step: number): void;
  /**
   * Starts a lab and opens the live screen, leaving the builder and its draft alone: the guide
   * stays where it was, to be read on when the class comes back.
   */
  runLab(lab: Experiment): Promise<void>;
}

/** The built-in lab the walkthrough runs, compares and concludes on. */
export const TAIL_LAB_ID = "builtin-tail-modes";

const STORAGE_KEY = "taillab.guide";
const CLOSED: KeptGuide = { open: false, step: 0, labRunId: null, labRunIds: [] };

function loadKept(): KeptGuide {
  try {
    const kept = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Partial<KeptGuide>;
    return {
      open: kept?.open === true,
      step: Number.isInteger(kept?.step) ? (kept?.step as number) : 0,
      labRunId: typeof kept?.labRunId === "string" ? kept.labRunId : null,
      labRunIds: Array.isArray(kept?.labRunIds) ? kept.labRunIds.map(String) : [],
    };
  } catch {
    return CLOSED;
  }
}

export const useGuide = create<GuideState>((set) => ({
  ...loadKept(),
  error: null,
  show: () => set({ open: true, error: null }),
  close: () => set({ open: false, step: 0, error: null }),
  goTo: (step) => set({ step, error: null }),

  async runLab(lab) {
    set({ error: null });
    try {
      const { runId } = await api().startRun({
        experiment: {
          name: lab.name,
          description: lab.description,
          endpointId: lab.endpointId,
          spec: lab.spec,
          ...(lab.modes ? { modes: lab.modes } : {}),
        },
      });
      if (lab.id === TAIL_LAB_ID) set({ labRunId: runId, labRunIds: [] });
      useLiveRun.getState().runRequested(runId, lab.name);
      useNavigation.getState().navigate({ view: "live" });
    } catch (failure) {
      set({ error: errorText(failure) });
    }
  },
}));

useGuide.subscribe((state) => {
  const { open, step, labRunId, labRunIds } = state;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ open, step, labRunId, labRunIds }));
  } catch {
    // Storage full or refused: the guide still works, it only forgets on reload.
  }
});

// The lab's series ends on the live screen: its runs are what the guide compares and concludes on.
useLiveRun.subscribe((live) => {
  const { labRunId, labRunIds } = useGuide.getState();
  const seriesRunIds = live.finished?.seriesRunIds ?? [];
  if (labRunId === null || seriesRunIds[0] !== labRunId || !canCompareModes(live)) return;
  if (labRunIds.join() !== seriesRunIds.join()) useGuide.setState({ labRunIds: seriesRunIds });
});
