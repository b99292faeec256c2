import type { ChartConfiguration } from "chart.js";
import { formatMs, formatTick } from "@taillab/report";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import { seriesColor, withAlpha, type ChartTheme } from "../../shared/chart-theme.ts";
import type { TimelineBucket } from "./live-run-state.ts";

export interface TimelineLabels {
  mean: string;
  band: string;
  x: string;
  y: string;
}

/** Log axes cannot show 0; a sub-microsecond floor keeps a 0 ms bucket on the chart. */
const LOG_FLOOR_MS = 0.001;

/**
 * The live timeline: each bucket at the middle of its request range, a min–max band (so a lone
 * stall shows as a spike) and the mean line, styled like the results screen's timeline. Data are
 * {x, y} points in order, so Chart.js skips parsing and the chart redraws at 10 Hz cheaply.
 */
export function timelineChartConfig(
  buckets: readonly TimelineBucket[],
  { logScale, labels, theme }: { logScale: boolean; labels: TimelineLabels; theme: ChartTheme },
): ChartConfiguration<"line"> {
  const floor = (ms: number) => (logScale ? Math.max(ms, LOG_FLOOR_MS) : ms);
  const x = (bucket: TimelineBucket) => (bucket.firstIndex + bucket.lastIndex) / 2;
  const color = seriesColor(theme, 0);
  return {
    type: "line",
    data: {
      datasets: [
        {
          label: labels.band,
          data: buckets.map((bucket) => ({ x: x(bucket), y: floor(bucket.max) })),
          borderWidth: 0,
          backgroundColor: withAlpha(color, 0.28),
          // Filled down to the next dataset (the minima): the band of each column.
          fill: "+1",
        },
        {
          label: labels.band,
          data: buckets.map((bucket) => ({ x: x(bucket), y: floor(bucket.min) })),
          borderWidth: 0,
        },
        {
          label: labels.mean,
          data: buckets.map((bucket) => ({ x: x(bucket), y: floor(bucket.mean) })),
          borderColor: color,
          backgroundColor: color,
          borderWidth: theme.lineWidth,
        },
      ],
    },
    options: {
      parsing: false,
      normalized: true,
      elements: { point: { radius: 0, hitRadius: 6 } },
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
        // The band is two datasets; its lower edge needs no legend entry.
        inLegend: (datasetIndex) => datasetIndex !== 1,
        tooltipLabel: (label, value) => `${label}: ${formatMs(value)} ms`,
      }),
    },
  };
}
