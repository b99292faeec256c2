import type { TailShare } from "@taillab/api";
import { formatTick, LATENCY_PARTS, type LatencyPart } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import type { ChartTheme } from "../../shared/chart-theme.ts";

/** One bar: the slowest share of a phase's requests. */
export interface TailRow {
  label: string;
  share: TailShare;
}

const FIELDS: Record<LatencyPart, keyof TailShare> = {
  clientQueue: "clientQueueMs",
  hedgeWait: "hedgeWaitMs",
  server: "serverMs",
  transfer: "transferMs",
};

/** A share's mean time in each part, in the order they happen; they add up to its mean. */
export function tailShareParts(share: TailShare): { part: LatencyPart; ms: number }[] {
  return LATENCY_PARTS.map((part) => ({ part, ms: share[FIELDS[part]] as number }));
}

/**
 * Horizontal bars, one per share (slowest 1 %, 0.1 %), stacked from the client's queue to the
 * last byte, in ms: the length of a bar is the share's mean latency.
 */
export function tailBreakdownChartConfig(
  theme: ChartTheme,
  rows: readonly TailRow[],
  labels: { parts: Record<LatencyPart, string>; x: string },
): ChartConfiguration<"bar"> {
  return {
    type: "bar",
    data: {
      labels: rows.map((row) => row.label),
      datasets: LATENCY_PARTS.map((part) => ({
        label: labels.parts[part],
        data: rows.map((row) => row.share[FIELDS[part]] as number),
        backgroundColor: theme.palette.parts[part],
        borderColor: theme.palette.parts[part],
        borderWidth: 0,
      })),
    },
    options: {
      indexAxis: "y",
      scales: {
        x: {
          ...axis(theme, {
            type: "linear",
            title: labels.x,
            beginAtZero: true,
            tickLabel: formatTick,
          }),
          stacked: true,
        },
        y: { ...axis(theme, { type: "category", title: "" }), stacked: true },
      },
      plugins: legendAndTooltip(theme),
    },
  };
}
