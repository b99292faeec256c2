import type { ClientSecond, IntervalStats, Operation, RunSummary } from "@taillab/api";
import {
  chartedOps,
  clientBoundSpans,
  FEW_REQUESTS_BEYOND,
  errorRatesStackedByCode,
  intervalCountsRecorded,
  secondsRestingOnFew,
  valueRange,
  ninesOf,
  sweepView,
  type HistogramView,
  type LatencyModelFits,
  type ModeEntry,
  type PercentilePoint,
  type SweepAxis,
  type SweepSeries,
} from "@taillab/core";
import { cdfSeries, type XY } from "./cdf-series.ts";
import { logAxisFloor, wantsLogAxis } from "./chart-ticks.ts";
import {
  overTimeLogScale,
  percentilesOverTime,
  rateOverTime,
  type OverTimePercentile,
  type RateKind,
} from "./over-time-series.ts";
import type { HistogramAnalysis } from "./histogram-analysis.ts";
import type { HistogramSeries } from "./histogram-series.ts";
import { columnMiddle, type LatencyIndexSeries } from "./latency-index-series.ts";
import { markup, type SafeHtml } from "./html.ts";
import {
  formatInteger,
  formatMiB,
  formatMs,
  formatSignificant,
  formatSize,
} from "./report-format.ts";
import type { ReportMessages } from "./report-messages.ts";
import { PALETTES, PERCENTILE_LABELS, seriesColorOf, type DashName } from "./palette.ts";
import {
  renderChart,
  type ChartMarker,
  type ChartSeries,
  type ChartTick,
  type Point,
} from "./svg-chart.ts";

/** The report is a light page: the light palette's colours. */
const PALETTE = PALETTES.light;

export function seriesColor(index: number): string {
  return seriesColorOf(PALETTE, index);
}

const MEASURED = "#15202b";
const MODEL_EXP = PALETTE.models.exponential;
const MODEL_LOGNORMAL = PALETTE.models.lognormal;
const P99_MARKER = PALETTE.percentiles.p99;

/**
 * Latency against request index (latencyIndexSeries, as the app's timeline draws it): each
 * column's fastest to slowest request as a band, its mean as a line, the p99 as a marker; the
 * index axis from the first request to the last.
 */
export function latencyIndexChart(
  id: string,
  messages: ReportMessages,
  latency: LatencyIndexSeries,
): SafeHtml {
  const { columns } = latency;
  const series: ChartSeries[] = [
    {
      kind: "band",
      key: "band",
      label: messages.bandLabel,
      color: seriesColor(0),
      points: columns.map((column) => ({
        x: columnMiddle(column),
        low: column.min,
        high: column.max,
      })),
    },
    {
      kind: "line",
      key: "mean",
      label: messages.meanLabel,
      color: MEASURED,
      width: 1.5,
      points: columns.map((column): Point => [columnMiddle(column), column.mean]),
    },
  ];
  return renderChart({
    legendHint: messages.legendHint,
    id,
    title: messages.latencyByIndexTitle,
    x: {
      label: messages.requestIndex,
      scale: "linear",
      min: columns[0]?.firstIndex ?? 0,
      max: columns.at(-1)?.lastIndex ?? 0,
    },
    y: latency.logScale
      ? { label: messages.latencyMs, scale: "log" }
      : { label: messages.latencyMs, scale: "linear", includeZero: true },
    series,
    markers: [
      {
        axis: "y",
        value: latency.p99Ms,
        label: `${messages.p99Label} ${formatMs(latency.p99Ms)} ms`,
        color: P99_MARKER,
        dash: true,
      },
    ],
    caption: messages.latencyByIndexNote(
      formatInteger(latency.requests),
      formatInteger(columns.length),
    ),
  });
}

/**
 * p50, p99 and p99.9 of each second of a phase and the bands of their 95 % intervals
 * (percentilesOverTime, as the app's chart draws them), behind them the seconds whose client was
 * the bottleneck (core's clientBoundSpans of `clientSeconds`) shaded. The caption says how many
 * seconds' tail figures rest on few requests.
 */
export function percentilesOverTimeChart(
  id: string,
  messages: ReportMessages,
  intervals: readonly IntervalStats[],
  clientSeconds: readonly ClientSecond[] = [],
): SafeHtml {
  const colors: Record<OverTimePercentile, string> = {
    p50: seriesColor(0),
    p99: seriesColor(1),
    p999: seriesColor(3),
  };
  const answered = intervals.filter((interval) => interval.p50Ms !== null);
  const values = answered.flatMap((interval) => [interval.p50Ms ?? 0, interval.p999Ms ?? 0]);
  const range = valueRange(values);
  const useLog = overTimeLogScale(intervals);
  const lines = percentilesOverTime(intervals, { logScale: useLog });
  const spans = range === null ? [] : clientBoundSpans(clientSeconds);
  const clientBound: ChartSeries[] =
    spans.length > 0 && range !== null
      ? [
          {
            kind: "bars",
            key: "client-bound",
            label: messages.overTimeClientBound,
            color: PALETTE.clientBound,
            opacity: 0.3,
            bars: spans.map((span) => ({
              x0: span.fromMs / 1000,
              x1: span.toMs / 1000,
              y: range.max,
            })),
          },
        ]
      : [];
  return renderChart({
    legendHint: messages.legendHint,
    id,
    title: messages.overTimeTitle,
    x: { label: messages.overTimeAxis, scale: "linear" },
    y: useLog
      ? { label: messages.latencyMs, scale: "log" }
      : { label: messages.latencyMs, scale: "linear", includeZero: true },
    series: [
      ...clientBound,
      ...lines.flatMap(({ key, label, band }): ChartSeries[] =>
        band.some((point) => point.low !== null)
          ? [
              {
                kind: "band",
                key: `${key}-interval`,
                label: `${label} ${messages.overTimeInterval}`,
                color: colors[key],
                points: band,
              },
            ]
          : [],
      ),
      ...lines.map(({ key, label, points }): ChartSeries => ({
        kind: "line",
        key: `${key}Ms`,
        label,
        color: colors[key],
        markers: intervals.length < 30,
        points: points.map(({ x, y }): Point => [x, y]),
      })),
    ],
    caption: [
      messages.overTimeNote,
      ...(answered.some((interval) => interval.percentileIntervals)
        ? [messages.overTimeIntervalNote]
        : []),
      ...lines.flatMap(({ key, label }) => {
        const few = secondsRestingOnFew(answered, key);
        return few > 0
          ? [messages.overTimeFewSeconds(label, few, answered.length, FEW_REQUESTS_BEYOND)]
          : [];
      }),
    ].join(" "),
  });
}

/** Each second's answers or failures per second of a phase (rateOverTime, as the app's). */
export function ratesOverTimeChart(
  id: string,
  messages: ReportMessages,
  intervals: readonly IntervalStats[],
  kind: "throughput" | "errors",
): SafeHtml {
  return perSecondLineChart(id, messages, messages.ratesOverTime[kind], intervals, kind);
}

/**
 * Each second's MiB moved per second of a phase (rateOverTime); a run stored before seconds kept
 * their bytes gets a note saying so, not a line at 0.
 */
export function dataOverTimeChart(
  id: string,
  messages: ReportMessages,
  intervals: readonly IntervalStats[],
): SafeHtml {
  const words = messages.ratesOverTime.data;
  if (!intervalCountsRecorded(intervals)) {
    return markup`<p class="note">${words.title}: ${messages.ratesOverTime.notRecorded}</p>`;
  }
  return perSecondLineChart(id, messages, words, intervals, "data");
}

const COLOR_OF_RATE: Record<RateKind, number> = { throughput: 0, errors: 1, data: 2 };

/**
 * One rate's line over a phase's seconds (rateOverTime), in the words of its chart, points drawn
 * while they are few; `under` are layers drawn beneath it (the errors' codes).
 */
function perSecondLineChart(
  id: string,
  messages: ReportMessages,
  words: { title: string; axis: string; line: string; note: string },
  intervals: readonly IntervalStats[],
  kind: RateKind,
  under: { series: ChartSeries[]; note: string } = { series: [], note: "" },
): SafeHtml {
  return renderChart({
    legendHint: messages.legendHint,
    id,
    title: words.title,
    x: { label: messages.overTimeAxis, scale: "linear" },
    y: { label: words.axis, scale: "linear", includeZero: true },
    series: [
      ...under.series,
      {
        kind: "line",
        key: kind,
        label: words.line,
        color: seriesColor(COLOR_OF_RATE[kind]),
        markers: intervals.length < 30,
        points: rateOverTime(intervals, kind).map(({ x, y }): Point => [x, y]),
      },
    ],
    caption: under.note ? `${words.note} ${under.note}` : words.note,
  });
}

/**
 * Each second's failures per second of a phase, stacked by error code (core's
 * errorRatesStackedByCode) under the total's line; a run stored before seconds kept their codes
 * draws the total alone and says the codes were not recorded.
 */
export function errorsByCodeOverTimeChart(
  id: string,
  messages: ReportMessages,
  intervals: readonly IntervalStats[],
): SafeHtml {
  const layers = errorRatesStackedByCode(intervals);
  if (!layers || layers.length === 0) {
    const chart = ratesOverTimeChart(id, messages, intervals, "errors");
    return layers
      ? chart
      : markup`${chart}<p class="note">${messages.ratesOverTime.errors.title}: ${messages.ratesOverTime.notRecorded}</p>`;
  }
  return perSecondLineChart(id, messages, messages.ratesOverTime.errors, intervals, "errors", {
    series: layers.map(({ code, points }, index): ChartSeries => ({
      kind: "band",
      key: `code-${index}`,
      label: code,
      color: seriesColor(index + 1),
      points: points.map(({ atS, low, high }) => ({ x: atS, low, high })),
    })),
    note: messages.ratesOverTime.byCode,
  });
}

/** How many requests took how long (histogramSeries), as the app's histogram draws it. */
export function latencyHistogramChart(
  id: string,
  messages: ReportMessages,
  histogram: HistogramSeries,
): SafeHtml {
  return renderChart({
    legendHint: messages.legendHint,
    id,
    title: messages.histogramTitle,
    height: 380,
    x: {
      label: messages.latencyMs,
      scale: histogram.binScale,
      min: histogram.fromMs,
      max: histogram.toMs,
    },
    // Counts of 1 (a lone stall) must still get a bar: the axis starts below 1.
    y: { label: messages.requestsLogScale, scale: "log", min: 0.5 },
    series: [
      {
        kind: "bars",
        key: "bins",
        label: messages.requests,
        color: seriesColor(0),
        bars: histogram.bars.flatMap((bar) =>
          bar.count === null ? [] : [{ x0: bar.lowMs, x1: bar.highMs, y: bar.count }],
        ),
      },
    ],
  });
}

/** The measured CDF beside the two fitted models' (cdfSeries), as the app's CDF chart draws it. */
export function cdfChart(
  id: string,
  messages: ReportMessages,
  analysis: HistogramAnalysis,
  measuredP99Ms: number,
): SafeHtml {
  const cdf = cdfSeries(analysis, measuredP99Ms);
  const { logScale, fromMs, toMs, better } = cdf;
  const points = (line: readonly XY[]) => line.map(({ x, y }): Point => [x, y]);
  const markers: ChartMarker[] = [
    {
      axis: "x",
      value: measuredP99Ms,
      label: `${messages.measuredP99} ${formatMs(measuredP99Ms)} ms`,
      color: P99_MARKER,
    },
    // A refused prediction (a model that does not fit) gets no marker.
    ...(better.holds
      ? [
          {
            axis: "x" as const,
            value: better.predictedP99Ms,
            label: `${messages.modelP99} ${formatMs(better.predictedP99Ms)} ms`,
            color: PALETTE.models[better.model],
            dash: true,
            seriesKey: better.model,
          },
        ]
      : []),
    { axis: "y", value: 0.99, label: "0.99", color: "#6b7680", dash: true },
  ];
  return renderChart({
    legendHint: messages.legendHint,
    id,
    title: messages.cdfTitle,
    x: { label: messages.latencyMs, scale: logScale ? "log" : "linear", min: fromMs, max: toMs },
    y: { label: messages.cdfAxis, scale: "linear", min: 0, max: 1 },
    series: [
      {
        kind: "line",
        key: "measured",
        label: messages.measuredCdf,
        color: MEASURED,
        width: 3,
        points: points(cdf.measured),
      },
      {
        kind: "line",
        key: "exponential",
        label: messages.exponentialModel,
        color: MODEL_EXP,
        dash: "dash",
        points: points(cdf.exponential),
      },
      {
        kind: "line",
        key: "lognormal",
        label: messages.lognormalModel,
        color: MODEL_LOGNORMAL,
        dash: "dot",
        points: points(cdf.lognormal),
      },
    ],
    markers,
  });
}

export function fitSummary(
  messages: ReportMessages,
  fits: LatencyModelFits,
  measuredP99Ms: number,
): SafeHtml {
  const { exponential, lognormal } = fits;
  return markup`<div class="fit">
    <p>
      ${messages.fitExponential(
        formatMs(exponential.t0Ms),
        formatSignificant(exponential.alphaPerMs),
        formatFixedKs(exponential.ksDistance),
        formatMs(exponential.predictedP99Ms),
        formatMs(measuredP99Ms),
      )}
    </p>
    <p>
      ${messages.fitLognormal(
        formatMs(Math.exp(lognormal.mu)),
        formatSignificant(lognormal.sigma),
        formatFixedKs(lognormal.ksDistance),
        formatMs(lognormal.predictedP99Ms),
      )}
    </p>
    <p class="note">${messages.fitExplanation}</p>
  </div>`;
}

function formatFixedKs(distance: number): string {
  return distance.toFixed(3);
}

export interface LadderLine {
  label: string;
  color: string;
  dash?: DashName;
  points: readonly PercentilePoint[];
}

/** Where the app's and the report's nines axis is labelled: p50, p90, p99, p99.9, p99.99. */
export const LADDER_TICKS: readonly ChartTick[] = [50, 90, 99, 99.9, 99.99].map((percentile) => ({
  value: ninesOf(percentile),
  label: `p${percentile}`,
}));

export function ladderChart(
  id: string,
  title: string,
  messages: ReportMessages,
  lines: readonly LadderLine[],
): SafeHtml {
  return renderChart({
    legendHint: messages.legendHint,
    id,
    title,
    x: {
      label: messages.percentile,
      scale: "linear",
      ticks: LADDER_TICKS,
      pad: 0.03,
    },
    y: { label: messages.latencyMs, scale: "log" },
    series: lines.map((line, index): ChartSeries => ({
      kind: "line",
      key: `line-${index}`,
      label: line.label,
      color: line.color,
      dash: line.dash,
      markers: true,
      points: line.points.map((point): Point => [point.nines, point.valueMs]),
    })),
    caption: messages.ladderNote,
  });
}

export interface CdfLine {
  label: string;
  color: string;
  dash?: DashName;
  view: HistogramView;
}

export function cdfOverlayChart(
  id: string,
  title: string,
  messages: ReportMessages,
  lines: readonly CdfLine[],
): SafeHtml {
  const range = valueRange(
    lines.flatMap((line) => [line.view.minMs, line.view.maxMs]).filter((v) => v > 0),
  );
  const logScale = range !== null && wantsLogAxis([range.min, range.max]);
  return renderChart({
    legendHint: messages.legendHint,
    id,
    title,
    x: { label: messages.latencyMs, scale: logScale ? "log" : "linear", includeZero: !logScale },
    y: { label: messages.cdfAxis, scale: "linear", min: 0, max: 1 },
    series: lines.map((line, index): ChartSeries => ({
      kind: "line",
      key: `line-${index}`,
      label: line.label,
      color: line.color,
      dash: line.dash,
      width: 2.5,
      points: line.view.cdf.map((point): Point => [point.valueMs, point.fraction]),
    })),
    markers: [{ axis: "y", value: 0.99, label: "0.99", color: "#6b7680", dash: true }],
  });
}

const OP_DASH: Partial<Record<Operation, DashName>> = { GET: "dash", DELETE: "dot" };

function fixedLabel(messages: ReportMessages, line: SweepSeries): string {
  const { clients, samples, objectSizeBytes } = line.fixed;
  return [
    objectSizeBytes === undefined ? null : formatSize(objectSizeBytes),
    clients === undefined ? null : messages.seriesClients(clients),
    samples === undefined ? null : messages.seriesSamples(samples),
    line.totalBytes === null ? null : messages.seriesPerPoint(formatSize(line.totalBytes)),
  ]
    .filter((part) => part !== null)
    .join(messages.seriesJoin);
}

/** Throughput, ops/s and latency against object size and against concurrency, per operation. */
export function sweepCharts(
  idPrefix: string,
  messages: ReportMessages,
  summary: RunSummary,
  opLabel: (op: Operation) => string,
): SafeHtml[] {
  const view = sweepView(summary, { ops: chartedOps([summary]) });
  const charts: SafeHtml[] = [];
  const axes: { axis: SweepAxis; values: number[]; title: string }[] = [];
  if (view.objectSizes.length > 1) {
    axes.push({ axis: "objectSize", values: view.objectSizes, title: messages.againstSize });
  }
  if (view.concurrencies.length > 1) {
    axes.push({
      axis: "concurrency",
      values: view.concurrencies,
      title: messages.againstConcurrency,
    });
  }
  for (const { axis, values, title } of axes) {
    const byAxis = axis === "objectSize" ? view.bySize : view.byConcurrency;
    const x =
      axis === "objectSize"
        ? {
            label: messages.objectSizeAxis,
            scale: "log" as const,
            ticks: values.map((value) => ({ value, label: formatSize(value) })),
            pad: 0.04,
          }
        : {
            label: messages.concurrencyAxis,
            // 1, 2 and 5 clients crowd into one label on a linear axis that reaches 50.
            scale: wantsLogAxis(values) ? ("log" as const) : ("linear" as const),
            ticks: values.map((value) => ({ value, label: String(value) })),
            pad: 0.04,
          };
    const groups: string[] = [];
    const groupOf = (line: SweepSeries) => {
      const group = line.key.slice(line.op.length + 1);
      if (!groups.includes(group)) groups.push(group);
      return groups.indexOf(group);
    };
    const rateSeries = (lines: readonly SweepSeries[]): ChartSeries[] =>
      lines.map((line) => ({
        kind: "line",
        key: line.key,
        label: `${line.op} · ${fixedLabel(messages, line)}`,
        color: seriesColor(groupOf(line)),
        dash: OP_DASH[line.op],
        markers: true,
        points: line.points.map((point): Point => [point.x, point.y]),
      }));
    const prefix = `${idPrefix}-${axis === "objectSize" ? "size" : "conc"}`;
    charts.push(
      renderChart({
        legendHint: messages.legendHint,
        id: `${prefix}-mbps`,
        title: messages.sweepThroughputTitle(title),
        x,
        y: sweepYAxis(messages.throughputMBps, rateSeries(byAxis.throughputMBps)),
        series: rateSeries(byAxis.throughputMBps),
      }),
      renderChart({
        legendHint: messages.legendHint,
        id: `${prefix}-ops`,
        title: messages.sweepOpsTitle(title),
        x,
        y: sweepYAxis(messages.opsPerSecAxis, rateSeries(byAxis.opsPerSec)),
        series: rateSeries(byAxis.opsPerSec),
      }),
    );
    for (const op of view.ops) {
      const percentiles = [
        ["p50", byAxis.p50Ms, undefined],
        ["p99", byAxis.p99Ms, "dash"],
        ["p999", byAxis.p999Ms, "dot"],
      ] as const;
      // One line per percentile: each in its own colour. Several groups: a colour per group,
      // the percentiles told apart by dash.
      const oneGroup = byAxis.p50Ms.filter((line) => line.op === op).length === 1;
      const series: ChartSeries[] = percentiles.flatMap(([key, lines, dash]) =>
        lines
          .filter((line) => line.op === op)
          .map((line): ChartSeries => ({
            kind: "line",
            key: `${key} ${line.key}`,
            label: oneGroup
              ? PERCENTILE_LABELS[key]
              : `${PERCENTILE_LABELS[key]} · ${fixedLabel(messages, line)}`,
            color: oneGroup ? PALETTE.percentiles[key] : seriesColor(groupOf(line)),
            dash,
            markers: true,
            points: line.points.map((point): Point => [point.x, point.y]),
          })),
      );
      charts.push(
        renderChart({
          legendHint: messages.legendHint,
          id: `${prefix}-lat-${op}`,
          title: messages.sweepLatencyTitle(opLabel(op), title),
          x,
          y: sweepYAxis(messages.latencyMs, series),
          series,
        }),
      );
    }
  }
  return charts;
}

/**
 * A sweep chart's value axis: log when its lines span decades (throughput from 1 KiB to 1 MiB
 * objects as much as latency), as the app draws the same chart.
 */
function sweepYAxis(label: string, series: readonly ChartSeries[]) {
  const values = series.flatMap((entry) =>
    entry.kind === "line" ? entry.points.flatMap(([, y]) => (y === null ? [] : [y])) : [],
  );
  return wantsLogAxis(values)
    ? { label, scale: "log" as const }
    : { label, scale: "linear" as const, includeZero: true };
}

/** One run of a mode comparison (core's ModeEntry), under the label its bars carry. */
export type ModeBar = Pick<
  ModeEntry,
  "mode" | "p50Ms" | "p99Ms" | "p999Ms" | "extraPct" | "wastedBytes"
> & {
  label: string;
};

/** Grouped bars: one group per run at x = its index, one bar per series inside it. */
function groupedBars(
  entries: readonly ModeBar[],
  series: readonly { key: string; label: string; color: string; value: (bar: ModeBar) => number }[],
): ChartSeries[] {
  const width = 0.8 / series.length;
  return series.map((entry, seriesIndex) => ({
    kind: "bars",
    key: entry.key,
    label: entry.label,
    color: entry.color,
    bars: entries.map((bar, index) => {
      const x0 = index - 0.4 + seriesIndex * width;
      return { x0, x1: x0 + width, y: entry.value(bar) };
    }),
  }));
}

/**
 * The latency axis of a mode comparison's tail bars, the app's and the report's: log when the
 * bars span decades (a 1 s stall beside 20 ms tails), and then starting below the smallest bar
 * (logAxisFloor), which would otherwise have no height at all.
 */
export function modeTailAxis(valuesMs: readonly number[]): { logScale: boolean; logMin: number } {
  const bars = valuesMs.filter((value) => value > 0);
  return { logScale: wantsLogAxis(bars), logMin: logAxisFloor(Math.min(...bars)) };
}

/**
 * "Normal vs hedged vs tied" as the app's Compare screen draws it: the tail each mode reached
 * (p50, p99, p99.9 bars, each percentile in its colour) and what its backups cost.
 */
export function modeComparisonCharts(
  idPrefix: string,
  messages: ReportMessages,
  titles: { tail: string; cost: string },
  entries: readonly ModeBar[],
): SafeHtml[] {
  const x = {
    label: messages.mode,
    scale: "linear" as const,
    min: -0.5,
    max: entries.length - 0.5,
    ticks: entries.map((entry, index) => ({ value: index, label: entry.label })),
  };
  const tailAxis = modeTailAxis(
    entries.flatMap((entry) => [entry.p50Ms, entry.p99Ms, entry.p999Ms]),
  );
  const percentiles = (["p50", "p99", "p999"] as const).map((key) => ({
    key,
    label: PERCENTILE_LABELS[key],
    color: PALETTE.percentiles[key],
    value: (bar: ModeBar) => bar[`${key}Ms`],
  }));
  return [
    renderChart({
      legendHint: messages.legendHint,
      id: `${idPrefix}-tail`,
      title: titles.tail,
      height: 360,
      x,
      y: tailAxis.logScale
        ? { label: messages.latencyMs, scale: "log", min: tailAxis.logMin }
        : { label: messages.latencyMs, scale: "linear", includeZero: true },
      series: groupedBars(entries, percentiles),
    }),
    renderChart({
      legendHint: messages.legendHint,
      id: `${idPrefix}-cost`,
      title: titles.cost,
      height: 360,
      x,
      y: { label: messages.extraRequests, scale: "linear", includeZero: true },
      series: groupedBars(entries, [
        {
          key: "extra",
          label: messages.extraRequests,
          color: PALETTE.cost,
          value: (bar) => bar.extraPct,
        },
      ]),
      caption: entries
        .map((entry) => `${entry.label}: ${messages.wastedMiB} ${formatMiB(entry.wastedBytes)}`)
        .join(" · "),
    }),
  ];
}
