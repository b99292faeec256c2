import type { IntervalStats } from "@taillab/api";
import { errorCodesOf, intervalCountsRecorded, intervalRates } from "@taillab/core";
import { formatFixed, formatTick, rateOverTime, type RateKind } from "@taillab/report";
import type { ChartConfiguration, ChartDataset } from "chart.js";
import { markerLabelsPlugin } from "./chart-marker-labels.ts";
import { axis, legendAndTooltip } from "./chart-options.ts";
import {
  markerLabelsOptions,
  markerLineDatasets,
  perSecondChartBase,
  secondsAxis,
  type TimelineMarker,
} from "./chart-over-time.ts";
import { seriesColor, withAlpha, type ChartTheme } from "./chart-theme.ts";

export interface RatesOverTimeLabels {
  x: string;
  y: string;
  /** The line's legend entry. */
  line: string;
  /** The legend entry of the knob changes (with markers). */
  markers?: string;
}

type RateDataset = ChartDataset<"line", { x: number; y: number }[]>;

/**
 * Answers, MiB moved or failures per second of a phase (the report's rateOverTime, the points
 * the HTML report draws): throughput in the first series colour, errors in the second, data in the
 * third, on a linear axis from 0. Errors whose codes were recorded are stacked by code under
 * their total's line. `markers` (a live session's knob changes) are dotted lines with their
 * labels, as on the percentiles over time, so a change's effect on the rate shows where it was.
 */
export function ratesOverTimeChartConfig(
  theme: ChartTheme,
  intervals: readonly IntervalStats[],
  options: { kind: RateKind; labels: RatesOverTimeLabels; markers?: readonly TimelineMarker[] },
): ChartConfiguration<"line"> {
  const { kind, labels } = options;
  const markers = options.markers ?? [];
  const empty = intervals.length === 0;
  const byCode = kind === "errors" ? errorCodeDatasets(theme, intervals) : [];
  const line = rateDataset(theme, intervals, kind, labels.line);
  // A long run has more seconds than a spread's arguments may be.
  const top = line.data.reduce((highest, point) => Math.max(highest, point.y), 1);
  const markerLines = markerLineDatasets(theme, markers, 0, top).map((dataset, index) =>
    index === 0 ? { ...dataset, label: labels.markers ?? dataset.label } : dataset,
  );
  const firstMarker = byCode.length + 1;
  return {
    type: "line",
    plugins: [markerLabelsPlugin],
    data: { datasets: [...byCode, line, ...markerLines] },
    options: {
      ...perSecondChartBase(intervals.length),
      scales: {
        x: secondsAxis(theme, labels.x, intervals.length),
        y: {
          ...axis(theme, {
            type: "linear",
            title: labels.y,
            beginAtZero: true,
            tickLabel: formatTick,
            showTicks: !empty,
          }),
          // Codes stack on one another; the total's line is a stack of its own.
          stacked: byCode.length > 0,
        },
      },
      plugins: {
        ...legendAndTooltip(theme, {
          // One legend entry for every marker; a click on it hides or shows them all.
          inLegend: (index) => index <= firstMarker,
          toggleTogether: (index) => Math.min(index, firstMarker),
          tooltipLabel: (label, value, index) =>
            index >= firstMarker
              ? (markers[index - firstMarker]?.label ?? label)
              : `${label}: ${formatFixed(value, 1)}`,
        }),
        markerLabels: markerLabelsOptions(theme, markers, firstMarker),
      },
    },
  };
}

const BYTES_PER_MIB = 1024 * 1024;

/**
 * What a rates chart counts over its seconds: requests answered, errors, or MiB moved; null for
 * data moved in a run stored before its seconds kept bytes (not known, never 0).
 */
export function rateTotal(intervals: readonly IntervalStats[], kind: RateKind): number | null {
  if (kind === "data" && !intervalCountsRecorded(intervals)) return null;
  return intervals.reduce(
    (sum, interval) =>
      sum +
      (kind === "throughput"
        ? interval.requests
        : kind === "errors"
          ? interval.errors
          : (interval.bytes ?? 0) / BYTES_PER_MIB),
    0,
  );
}

const COLOR_OF_KIND: Record<RateKind, number> = { throughput: 0, errors: 1, data: 2 };

/** The kind's one line: its rate in each second that has it (data is absent where unrecorded). */
function rateDataset(
  theme: ChartTheme,
  intervals: readonly IntervalStats[],
  kind: RateKind,
  label: string,
): RateDataset {
  const color = seriesColor(theme, COLOR_OF_KIND[kind]);
  return {
    label,
    data: rateOverTime(intervals, kind),
    borderColor: color,
    backgroundColor: color,
    borderWidth: theme.lineWidth,
    stack: "total",
  };
}

/**
 * Each error code's failures per second as a filled layer, most failures at the bottom (core's
 * errorCodesOf), in the theme's series colours; none where codes were not recorded.
 */
function errorCodeDatasets(theme: ChartTheme, intervals: readonly IntervalStats[]): RateDataset[] {
  if (!intervalCountsRecorded(intervals)) return [];
  const rates = intervals.map(intervalRates);
  return errorCodesOf(intervals).map((code, index) => {
    const color = seriesColor(theme, index + 1);
    return {
      label: code,
      data: rates.map((rate) => ({ x: rate.atS, y: rate.errorsPerSecByCode?.[code] ?? 0 })),
      borderColor: color,
      backgroundColor: withAlpha(color, theme.bandAlpha),
      borderWidth: 1,
      pointRadius: 0,
      fill: index === 0 ? "origin" : "-1",
      stack: "codes",
    };
  });
}
