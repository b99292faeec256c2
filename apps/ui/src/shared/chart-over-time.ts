import type { IntervalStats } from "@taillab/api";
import { formatMs, formatTick } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import { axis, legendAndTooltip } from "./chart-options.ts";
import { seriesColor, type ChartTheme } from "./chart-theme.ts";

export interface OverTimeLabels {
  x: string;
  y: string;
}

/** Log axes cannot show 0; a sub-microsecond floor keeps a 0 ms second on the chart. */
const LOG_FLOOR_MS = 0.001;

const LINES = [
  { field: "p50Ms", label: "p50", color: 0 },
  { field: "p99Ms", label: "p99", color: 1 },
  { field: "p999Ms", label: "p99.9", color: 3 },
] as const;

/**
 * p50, p99 and p99.9 of each second (the engine's interval histograms), the one builder for the
 * live screen and a stored run: x is seconds since the run started, at the middle of each
 * second; a second with no successful answer leaves a gap.
 */
export function overTimeChartConfig(
  theme: ChartTheme,
  intervals: readonly IntervalStats[],
  options: { logScale: boolean; labels: OverTimeLabels },
): ChartConfiguration<"line"> {
  const { logScale, labels } = options;
  const x = (interval: IntervalStats) => (interval.startMs + interval.lengthMs / 2) / 1000;
  const y = (ms: number | null) =>
    ms === null ? null : logScale ? Math.max(ms, LOG_FLOOR_MS) : ms;
  return {
    type: "line",
    data: {
      datasets: LINES.map(({ field, label, color }) => ({
        label,
        data: intervals.map((interval) => ({ x: x(interval), y: y(interval[field]) })),
        borderColor: seriesColor(theme, color),
        backgroundColor: seriesColor(theme, color),
        borderWidth: theme.lineWidth,
        spanGaps: false,
      })),
    },
    options: {
      parsing: false,
      normalized: true,
      elements: { point: { radius: intervals.length < 30 ? 2 : 0, hitRadius: 6 } },
      interaction: { mode: "nearest", axis: "x", intersect: false },
      scales: {
        x: axis(theme, { type: "linear", title: labels.x, tickLabel: formatTick }),
        y: axis(theme, {
          type: logScale ? "logarithmic" : "linear",
          title: labels.y,
          beginAtZero: !logScale,
          tickLabel: formatTick,
        }),
      },
      plugins: legendAndTooltip(theme, {
        tooltipLabel: (label, value) => `${label}: ${formatMs(value)} ms`,
      }),
    },
  };
}
