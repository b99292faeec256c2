import type { IntervalStats } from "@taillab/api";
import { intervalMiddleS } from "@taillab/core";
import type { ChartConfiguration } from "chart.js";
import { create } from "zustand";
import { createCrosshair, crosshairPlugin } from "../../shared/chart-crosshair.ts";
import { withTimeRange } from "../../shared/chart-options.ts";
import type { ChartTheme } from "../../shared/chart-theme.ts";

/** Seconds since the run started, the part of a run's time charts a drag zoomed to. */
export interface TimeRange {
  fromS: number;
  toS: number;
}

interface TimeRangeState {
  /** Null: every second of the phase. */
  range: TimeRange | null;
  zoomTo(range: TimeRange): void;
  reset(): void;
}

/**
 * The time range every time chart of the run detail shows (percentiles, throughput and errors
 * over time): a drag on one zooms them all to the same seconds, and one reset undoes it.
 */
export const useTimeRange = create<TimeRangeState>()((set) => ({
  range: null,
  zoomTo: (range) => set({ range: range.toS > range.fromS ? range : null }),
  reset: () => set({ range: null }),
}));

/** The second under the pointer on any of the run's time charts: each draws a line there. */
const runCrosshair = createCrosshair();

/**
 * A time chart's part in the shared range: its config drawn over it, with the shared crosshair,
 * and what redraws it. `intervals`: the phase's seconds the charts draw, which a zoom keeps two
 * of in sight.
 */
export function useSharedTimeRange(intervals: readonly IntervalStats[]) {
  const range = useTimeRange((state) => state.range);
  const seconds = intervals.map(intervalMiddleS);
  const { zoomTo, reset } = useTimeRange.getState();
  const axisRange = range ? { min: range.fromS, max: range.toS } : null;
  return {
    deps: [range?.fromS, range?.toS],
    reset,
    drawn: (config: ChartConfiguration<"line">, theme: ChartTheme): ChartConfiguration<"line"> => ({
      ...withTimeRange(
        config,
        theme,
        axisRange,
        ({ min, max }) => zoomTo({ fromS: min, toS: max }),
        seconds,
      ),
      plugins: [...(config.plugins ?? []), crosshairPlugin(runCrosshair, theme)],
    }),
  };
}
