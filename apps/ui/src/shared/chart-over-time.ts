import { PERCENTILE_LEVELS, type IntervalStats } from "@taillab/api";
import {
  FEW_REQUESTS_BEYOND,
  intervalMiddleS,
  requestsBeyond,
  secondsRestingOnFew,
  type ClientBoundSpan,
} from "@taillab/core";
import {
  formatIntervalMs,
  formatMs,
  formatPercent,
  formatTick,
  LOG_FLOOR_MS,
  OVER_TIME_PERCENTILES,
  PERCENTILE_LABELS,
  percentilesOverTime,
  REPORT_LANGUAGES,
  REPORT_MESSAGES,
  type OverTimePercentile,
} from "@taillab/report";
import type { ChartConfiguration, ChartDataset, ChartOptions } from "chart.js";
import {
  markerLabelColors,
  markerLabelsPlugin,
  type MarkerLabelsOptions,
} from "./chart-marker-labels.ts";
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
  /** The legend entry of the percentiles' 95 % intervals. */
  interval: string;
  /** A second's percentile that rests on `beyond` (fewer than 10) slower requests. */
  restsOn: (beyond: number) => string;
}

/** The report's words in the screen's language (i18next's), English where it has none. */
function reportWords(language: string) {
  return REPORT_MESSAGES[REPORT_LANGUAGES.find((each) => each === language) ?? "en"];
}

/** The intervals' words, as the HTML report says them (its catalogue). */
export function overTimeIntervalLabels(
  language: string,
): Pick<OverTimeLabels, "interval" | "restsOn"> {
  const report = reportWords(language);
  return { interval: report.overTimeInterval, restsOn: report.overTimeRestsOn };
}

/**
 * What a stored phase's chart says of its intervals: what the bands are, and how many seconds'
 * percentiles rest on few requests (none for seconds recorded before intervals were kept).
 */
export function overTimeIntervalNotes(
  language: string,
  intervals: readonly IntervalStats[],
): string[] {
  if (!intervals.some((interval) => interval.percentileIntervals)) return [];
  const report = reportWords(language);
  const answered = intervals.filter((interval) => interval.requests > 0);
  return [
    report.overTimeIntervalNote,
    ...OVER_TIME_PERCENTILES.flatMap((key) => {
      const few = secondsRestingOnFew(answered, key);
      return few > 0
        ? [
            report.overTimeFewSeconds(
              PERCENTILE_LABELS[key],
              few,
              answered.length,
              FEW_REQUESTS_BEYOND,
            ),
          ]
        : [];
    }),
  ];
}

/** A moment on the timeline: a live session's knob change, with what changed. */
export interface TimelineMarker {
  atMs: number;
  label: string;
}

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
 * p50, p99 and p99.9 of each second and their 95 % intervals (the report's percentilesOverTime,
 * the points and gaps the HTML report draws), the one builder for the live screen and a stored
 * run. With `cost`, the extra requests of
 * each second on a right axis; `markers` (a live session's knob changes) are vertical lines;
 * `clientBound` (core's clientBoundSpans) are thick bars along the top of the latency axis over
 * the seconds whose client was the bottleneck, so a tail there reads as the client's. Each shown
 * percentile's 95 % intervals are a band in its colour, one legend entry for all; a percentile's
 * tooltip gives its interval and says when it rests on few requests.
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
  const series = percentilesOverTime(intervals, { logScale, percentiles });
  const latencyLines: ChartDataset<"line">[] = series.map(({ key, label, points }) => ({
    label,
    data: points,
    borderColor: theme.palette.percentiles[key],
    backgroundColor: theme.palette.percentiles[key],
    borderWidth: theme.lineWidth,
    spanGaps: false,
    yAxisID: "y",
  }));
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
  const markerLines = markerLineDatasets(theme, markers, low, high);
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
  // Each band: its upper ends filled down to its lower ends, the dataset after it.
  const bands: ChartDataset<"line">[] = series.flatMap(({ key, band }) => {
    const color = withAlpha(theme.palette.percentiles[key], theme.bandAlpha);
    const ends = (end: "low" | "high") => band.map((point) => ({ x: point.x, y: point[end] }));
    const edge = { borderWidth: 0, pointRadius: 0, backgroundColor: color, spanGaps: false };
    return [
      { ...edge, label: labels.interval, data: ends("high"), fill: "+1", yAxisID: "y" },
      { ...edge, label: labels.interval, data: ends("low"), yAxisID: "y" },
    ];
  });
  const withBands = series.some(({ band }) => band.some((point) => point.low !== null));
  const firstMarker = latencyLines.length + costLine.length;
  const firstClientBound = firstMarker + markerLines.length;
  const firstBand = firstClientBound + clientBoundBars.length;
  const datasets = [
    ...latencyLines,
    ...costLine,
    ...markerLines,
    ...clientBoundBars,
    ...(withBands ? bands : []),
  ];
  const percentileLabel = (key: OverTimePercentile, index: number, valueMs: number) => {
    const interval = intervals[index];
    const bounds = interval?.percentileIntervals?.[key];
    if (!interval || !bounds) return `${PERCENTILE_LABELS[key]}: ${formatMs(valueMs)} ms`;
    const beyond = requestsBeyond(interval.requests, PERCENTILE_LEVELS[key]);
    const few = beyond < FEW_REQUESTS_BEYOND ? ` · ${labels.restsOn(beyond)}` : "";
    return `${PERCENTILE_LABELS[key]}: ${formatMs(valueMs)} ms ${formatIntervalMs(bounds)}${few}`;
  };
  const empty = intervals.length === 0;
  const legendAndTooltips = legendAndTooltip(theme, {
    // One legend entry for every marker, one for every client-bound stretch; a click on
    // either hides or shows its group.
    // The bands likewise: one entry for all; their values are in the percentiles' tooltips.
    inLegend: (index) =>
      index < firstMarker || [firstMarker, firstClientBound, firstBand].includes(index),
    inTooltip: (index) => index < firstBand,
    toggleTogether: (index) =>
      index >= firstBand
        ? firstBand
        : index >= firstClientBound
          ? firstClientBound
          : Math.min(index, firstMarker),
    tooltipLabel: (label, value, index, dataIndex) => {
      if (index >= firstClientBound) return label;
      if (index >= firstMarker) return markers[index - firstMarker]?.label ?? label;
      if (index >= latencyLines.length) return `${label}: ${formatPercent(value)} %`;
      return percentileLabel(percentiles[index] as OverTimePercentile, dataIndex, value);
    },
  });
  return {
    type: "line",
    plugins: [markerLabelsPlugin],
    data: {
      datasets: datasets.map((dataset, index) =>
        index === firstMarker && markerLines.length > 0
          ? { ...dataset, label: labels.markers }
          : dataset,
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
      plugins: {
        ...legendAndTooltips,
        markerLabels: markerLabelsOptions(theme, markers, firstMarker),
      },
    },
  };
}

/**
 * A live session's knob changes on a chart of its seconds: each a dotted line in the theme's
 * chart text from `low` to `high` on the y axis (a dataset, not a drawing, so it shows in SVG
 * too), each in a stack of its own so a stacked axis does not pile them up.
 */
export function markerLineDatasets(
  theme: ChartTheme,
  markers: readonly TimelineMarker[],
  low: number,
  high: number,
): ChartDataset<"line">[] {
  return markers.map((marker, index) => ({
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
    stack: `marker-${index}`,
  }));
}

/** What markerLabelsPlugin writes: each marker's label, shown while its lines (from `datasetIndex`) are. */
export function markerLabelsOptions(
  theme: ChartTheme,
  markers: readonly TimelineMarker[],
  datasetIndex: number,
): MarkerLabelsOptions {
  return {
    labels: markers.map((marker) => ({ x: marker.atMs / 1000, text: marker.label })),
    datasetIndex,
    ...markerLabelColors(theme),
    fontSize: theme.labelSize,
    fontFamily: theme.fontFamily,
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
      const value = interval[`${key}Ms`];
      if (value === null) continue;
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  }
  if (high === 0) return [logScale ? LOG_FLOOR_MS : 0, 1];
  return [logScale ? Math.max(low, LOG_FLOOR_MS) : 0, high];
}
