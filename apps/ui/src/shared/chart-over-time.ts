import type { IntervalStats } from "@taillab/api";
import { intervalMiddleS, type ClientBoundSpan } from "@taillab/core";
import { formatMs, formatPercent, formatTick, type PercentileKey } from "@taillab/report";
import type { ChartConfiguration, ChartDataset, ChartOptions } from "chart.js";
import { axis, legendAndTooltip } from "./chart-options.ts";
import { withAlpha, type ChartTheme } from "./chart-theme.ts";

export interface OverTimeLabels {
  x: string;
  y: string;
  /** The right axis and its line: extra requests as a % of the second's requests. */
  cost: string;
  /** The legend entry of the knob changes. */
  markers: string;
  /** The legend entry of the seconds whose client was the bottleneck. */
  clientBound: string;
}

/** A moment on the timeline: a live session's knob change, with what changed. */
export interface TimelineMarker {
  atMs: number;
  label: string;
}

/** The percentiles a second's histogram gives; p90 and p99.99 are not kept per second. */
export type OverTimePercentile = Extract<PercentileKey, "p50" | "p99" | "p999">;
export const OVER_TIME_PERCENTILES: readonly OverTimePercentile[] = ["p50", "p99", "p999"];

/** Log axes cannot show 0; a sub-microsecond floor keeps a 0 ms second on the chart. */
const LOG_FLOOR_MS = 0.001;

const FIELDS: Record<OverTimePercentile, { field: keyof IntervalStats; label: string }> = {
  p50: { field: "p50Ms", label: "p50" },
  p99: { field: "p99Ms", label: "p99" },
  p999: { field: "p999Ms", label: "p99.9" },
};

/**
 * What every chart of a phase's seconds shares: points drawn only while they are few, the
 * nearest second under the pointer, and a linear axis of seconds (secondsAxis) that one time
 * range zooms alike.
 */
export function perSecondChartBase(seconds: number) {
  return {
    parsing: false,
    normalized: true,
    elements: { point: { radius: seconds < 30 ? 2 : 0, hitRadius: 6 } },
    interaction: { mode: "nearest", axis: "x", intersect: false },
  } satisfies ChartOptions<"line">;
}

/** The x axis of a chart of `seconds` seconds: seconds since the run started. */
export function secondsAxis(theme: ChartTheme, title: string, seconds: number) {
  return axis(theme, { type: "linear", title, tickLabel: formatTick, showTicks: seconds > 0 });
}

/** Backups as a % of the second's answered and failed requests; null with none or not known. */
export function extraPercentOf(interval: IntervalStats): number | null {
  const requests = interval.requests + interval.errors;
  if (interval.backups === undefined || requests === 0) return null;
  return (interval.backups * 100) / requests;
}

/**
 * p50, p99 and p99.9 of each second (the engine's interval histograms), the one builder for the
 * live screen and a stored run: x is seconds since the run started, at the middle of each
 * second; a second with no successful answer leaves a gap. With `cost`, the extra requests of
 * each second on a right axis; `markers` (a live session's knob changes) are vertical lines;
 * `clientBound` (core's clientBoundSpans) are thick bars along the top of the latency axis over
 * the seconds whose client was the bottleneck, so a tail there reads as the client's.
 */
export function overTimeChartConfig(
  theme: ChartTheme,
  intervals: readonly IntervalStats[],
  options: {
    logScale: boolean;
    labels: OverTimeLabels;
    percentiles?: readonly OverTimePercentile[];
    cost?: boolean;
    markers?: readonly TimelineMarker[];
    clientBound?: readonly ClientBoundSpan[];
  },
): ChartConfiguration<"line"> {
  const { logScale, labels, percentiles = OVER_TIME_PERCENTILES, cost = false } = options;
  const markers = options.markers ?? [];
  const y = (ms: number | null) =>
    ms === null ? null : logScale ? Math.max(ms, LOG_FLOOR_MS) : ms;
  const latencyLines: ChartDataset<"line">[] = percentiles.map((key) => {
    const { field, label } = FIELDS[key];
    return {
      label,
      data: intervals.map((interval) => ({
        x: intervalMiddleS(interval),
        y: y(interval[field] as number | null),
      })),
      borderColor: theme.palette.percentiles[key],
      backgroundColor: theme.palette.percentiles[key],
      borderWidth: theme.lineWidth,
      spanGaps: false,
      yAxisID: "y",
    };
  });
  const costLine: ChartDataset<"line">[] = cost
    ? [
        {
          label: labels.cost,
          data: intervals.map((interval) => ({
            x: intervalMiddleS(interval),
            y: extraPercentOf(interval),
          })),
          borderColor: theme.palette.cost,
          backgroundColor: withAlpha(theme.palette.cost, theme.bandAlpha),
          borderWidth: theme.lineWidth,
          borderDash: [6, 4],
          spanGaps: false,
          yAxisID: "cost",
        },
      ]
    : [];
  const [low, high] = latencyRange(intervals, percentiles, logScale);
  // A marker is a line from the bottom to the top of the latency axis, so it shows in SVG too.
  const markerLines: ChartDataset<"line">[] = markers.map((marker) => ({
    label: marker.label,
    data: [
      { x: marker.atMs / 1000, y: low },
      { x: marker.atMs / 1000, y: high },
    ],
    borderColor: theme.text,
    backgroundColor: theme.text,
    borderWidth: Math.max(1, theme.lineWidth / 2),
    borderDash: [2, 3],
    pointRadius: 0,
    yAxisID: "y",
  }));
  // Lines like the markers' (not a fill), so they show in SVG too.
  const clientBoundBars: ChartDataset<"line">[] = (options.clientBound ?? []).map((span) => ({
    label: labels.clientBound,
    data: [
      { x: span.fromMs / 1000, y: high },
      { x: span.toMs / 1000, y: high },
    ],
    borderColor: withAlpha(theme.palette.clientBound, 0.8),
    backgroundColor: theme.palette.clientBound,
    borderWidth: theme.lineWidth * 3,
    pointRadius: 0,
    yAxisID: "y",
  }));
  const firstMarker = latencyLines.length + costLine.length;
  const firstClientBound = firstMarker + markerLines.length;
  const datasets = [...latencyLines, ...costLine, ...markerLines, ...clientBoundBars];
  const empty = intervals.length === 0;
  return {
    type: "line",
    data: {
      datasets: datasets.map((dataset, index) =>
        index === firstMarker ? { ...dataset, label: labels.markers } : dataset,
      ),
    },
    options: {
      ...perSecondChartBase(intervals.length),
      scales: {
        x: secondsAxis(theme, labels.x, intervals.length),
        y: axis(theme, {
          type: logScale ? "logarithmic" : "linear",
          title: labels.y,
          beginAtZero: !logScale,
          tickLabel: formatTick,
          showTicks: !empty,
        }),
        ...(cost
          ? {
              cost: {
                ...axis(theme, {
                  type: "linear",
                  title: labels.cost,
                  beginAtZero: true,
                  tickLabel: formatTick,
                  showTicks: !empty,
                }),
                position: "right",
                grid: { drawOnChartArea: false },
              },
            }
          : {}),
      },
      plugins: legendAndTooltip(theme, {
        // One legend entry for every marker, one for every client-bound stretch; a click on
        // either hides or shows its group.
        inLegend: (index) => index <= firstMarker || index === firstClientBound,
        toggleTogether: (index) =>
          index >= firstClientBound ? firstClientBound : Math.min(index, firstMarker),
        tooltipLabel: (label, value, index) => {
          if (index >= firstClientBound) return label;
          if (index >= firstMarker) return markers[index - firstMarker]?.label ?? label;
          if (index >= latencyLines.length) return `${label}: ${formatPercent(value)} %`;
          return `${label}: ${formatMs(value)} ms`;
        },
      }),
    },
  };
}

/** The latency axis' extent over the shown lines, for markers that span it. */
function latencyRange(
  intervals: readonly IntervalStats[],
  percentiles: readonly OverTimePercentile[],
  logScale: boolean,
): [number, number] {
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  for (const interval of intervals) {
    for (const key of percentiles) {
      const value = interval[FIELDS[key].field] as number | null;
      if (value === null) continue;
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  }
  if (high === 0) return [logScale ? LOG_FLOOR_MS : 0, 1];
  return [logScale ? Math.max(low, LOG_FLOOR_MS) : 0, high];
}
