import {
  columnMiddle,
  formatMs,
  formatTick,
  LOG_FLOOR_MS,
  type PercentileKey,
} from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import { axis, integerTickLabel, legendAndTooltip, zoomAlongX } from "./chart-options.ts";
import { seriesColor, withAlpha, type ChartTheme } from "./chart-theme.ts";

/** Consecutive requests folded into one column (core's DecimatedBucket, a live timeline bucket). */
export interface TimelineColumn {
  firstIndex: number;
  lastIndex: number;
  min: number;
  max: number;
  mean: number;
}

export interface TimelineLabels {
  /** The band's legend entry (min–max). */
  band: string;
  slowest: string;
  fastest: string;
  mean: string;
  x: string;
  y: string;
}

export interface TimelineChartOptions {
  logScale: boolean;
  labels: TimelineLabels;
  /** Dashed lines at the phase's percentiles, each in its colour, with its legend label. */
  percentiles?: readonly { key: PercentileKey; valueMs: number; label: string }[];
  /** Wheel zoom and drag pan along the request index (a stored run; not a live one). */
  zoom?: boolean;
}

/**
 * Latency against request index, the one builder for the results and the live screens: each
 * column at the middle of its request range, a min–max band (so a lone stall shows as a spike)
 * and the mean line. Data are {x, y} in order, so Chart.js skips parsing and redraws cheaply.
 */
export function timelineChartConfig(
  theme: ChartTheme,
  columns: readonly TimelineColumn[],
  options: TimelineChartOptions,
): ChartConfiguration<"line"> {
  const { labels, logScale, percentiles = [] } = options;
  const y = (ms: number) => (logScale ? Math.max(ms, LOG_FLOOR_MS) : ms);
  const color = seriesColor(theme, 0);
  const first = columns[0]?.firstIndex ?? 0;
  const last = columns.at(-1)?.lastIndex ?? 0;
  const datasets: ChartConfiguration<"line">["data"]["datasets"] = [
    {
      label: labels.band,
      data: columns.map((column) => ({ x: columnMiddle(column), y: y(column.max) })),
      borderWidth: 0,
      backgroundColor: withAlpha(color, theme.bandAlpha),
      // Filled down to the next dataset (the minima): the band of each column.
      fill: "+1",
    },
    {
      label: labels.fastest,
      data: columns.map((column) => ({ x: columnMiddle(column), y: y(column.min) })),
      borderWidth: 0,
    },
    {
      label: labels.mean,
      data: columns.map((column) => ({ x: columnMiddle(column), y: y(column.mean) })),
      borderColor: color,
      backgroundColor: color,
      borderWidth: theme.lineWidth,
    },
  ];
  for (const line of columns.length > 0 ? percentiles : []) {
    const lineColor = theme.palette.percentiles[line.key];
    datasets.push({
      label: line.label,
      data: [
        { x: first, y: y(line.valueMs) },
        { x: last, y: y(line.valueMs) },
      ],
      borderColor: lineColor,
      backgroundColor: lineColor,
      borderWidth: theme.lineWidth,
      borderDash: [8, 5],
    });
  }
  return {
    type: "line",
    data: { datasets },
    options: {
      parsing: false,
      normalized: true,
      elements: { point: { radius: 0, hitRadius: 6 } },
      interaction: { mode: "nearest", axis: "x", intersect: false },
      scales: {
        // Request indices are whole: a short phase's in-between ticks stay blank. With no
        // requests yet, Chart.js's default 0–1 axes would label nothing real: no ticks at all.
        x: axis(theme, {
          type: "linear",
          title: labels.x,
          ...(columns.length > 0 ? { min: first, max: last } : {}),
          tickLabel: integerTickLabel,
          showTicks: columns.length > 0,
        }),
        y: axis(theme, {
          type: logScale ? "logarithmic" : "linear",
          title: labels.y,
          beginAtZero: !logScale,
          tickLabel: formatTick,
          showTicks: columns.length > 0,
        }),
      },
      plugins: {
        ...legendAndTooltip(theme, {
          // The band is two datasets; its lower edge needs no legend entry.
          inLegend: (datasetIndex) => datasetIndex !== 1,
          tooltipLabel: (label, value, datasetIndex) =>
            `${datasetIndex === 0 ? labels.slowest : label}: ${formatMs(value)} ms`,
        }),
        ...(options.zoom ? { zoom: zoomAlongX(theme) } : {}),
      },
    },
  };
}
