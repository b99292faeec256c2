import type { TailShare } from "@taillab/api";
import { formatTick, LATENCY_PARTS, type LatencyPart } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import type { ChartTheme } from "../../shared/chart-theme.ts";

/**
 * One bar: the slowest share of a phase's requests, its server time with the client's own stall
 * taken out (core's serverAndStall; clientStallMs null in a run recorded before it was measured).
 */
export interface TailRow {
  label: string;
  share: TailShare;
  serverMs: number;
  clientStallMs: number | null;
}

/** A slice of a tail bar: a part of the timeline, or the client's stall out of the server's. */
export type TailPart = LatencyPart | "clientStall";

const FIELDS: Record<LatencyPart, keyof TailShare> = {
  clientQueue: "clientQueueMs",
  connect: "connectMs",
  hedgeWait: "hedgeWaitMs",
  upload: "uploadMs",
  server: "serverMs",
  transfer: "transferMs",
};

/**
 * A row's mean time in each part, in the order they happen, the client's stall beside the server
 * when measured; they add up to its mean. ms is null for a part the run did not record (connects
 * and uploads, in runs recorded before they were).
 */
export function tailRowParts(row: TailRow): { part: TailPart; ms: number | null }[] {
  return LATENCY_PARTS.flatMap((part): { part: TailPart; ms: number | null }[] => {
    if (part !== "server") {
      const ms = row.share[FIELDS[part]];
      return [{ part, ms: typeof ms === "number" ? ms : null }];
    }
    const server = { part, ms: row.serverMs };
    return row.clientStallMs === null
      ? [server]
      : [server, { part: "clientStall", ms: row.clientStallMs }];
  });
}

/**
 * Horizontal bars, one per share (slowest 1 %, 0.1 %), stacked from the client's queue to the
 * last byte, in ms: the length of a bar is the share's mean latency.
 */
export function tailBreakdownChartConfig(
  theme: ChartTheme,
  rows: readonly TailRow[],
  labels: { parts: Record<TailPart, string>; x: string },
): ChartConfiguration<"bar"> {
  const parts = rows.map(tailRowParts);
  const colorOf = (part: TailPart) =>
    part === "clientStall" ? theme.palette.clientBound : theme.palette.parts[part];
  return {
    type: "bar",
    data: {
      labels: rows.map((row) => row.label),
      datasets: (parts[0] ?? []).map(({ part }, index) => ({
        label: labels.parts[part],
        data: parts.map((row) => row[index]?.ms ?? 0),
        backgroundColor: colorOf(part),
        borderColor: colorOf(part),
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
