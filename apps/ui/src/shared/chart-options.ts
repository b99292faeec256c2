import { axisTickRoom, axisTicks, formatInteger } from "@taillab/report";
import {
  Chart,
  type ChartConfiguration,
  type ChartOptions,
  type Scale,
  type ScaleOptions,
} from "chart.js";
import { seriesColor, withAlpha, type ChartTheme } from "./chart-theme.ts";

/**
 * The option pieces every TailLab chart shares, sized from the theme so projector mode's big type
 * and thick lines reach ticks, titles and legends too.
 */

function chartFont(theme: ChartTheme, scale = 1): { size: number; family: string } {
  return { size: Math.round(theme.fontSize * scale), family: theme.fontFamily };
}

/** Ticks and legend entries: the theme's label size (20 px on a projector). */
function labelFont(theme: ChartTheme): { size: number; family: string } {
  return { size: theme.labelSize, family: theme.fontFamily };
}

export type AxisType = "linear" | "logarithmic" | "category";

export interface AxisSpec {
  title: string;
  type: AxisType;
  min?: number;
  max?: number;
  /** Start a linear axis at zero (rates, counts). */
  beginAtZero?: boolean;
  /** Label each tick; the value is the tick's position on the axis. */
  tickLabel?: (value: number) => string;
  /** Put ticks exactly here (e.g. the nines of p50, p90, p99…, or the swept sizes). */
  tickValues?: readonly number[];
  /** False: no tick labels (an axis with nothing on it yet). */
  showTicks?: boolean;
}

/**
 * The ends and ticks the HTML report gives the same axis (report's `axisTicks`): the ends set once
 * Chart.js knows the data's, the ticks in place of the ones it built. A log axis's ticks are
 * thinned to the room its labels have, from the axis's length and the tick font, so projector
 * mode's big labels get fewer ticks rather than a pile.
 */
function sharedTicks(spec: AxisSpec, fontSize: number, label: (value: number) => string) {
  const scaleKind = spec.type === "logarithmic" ? "log" : "linear";
  const roomOf = (scale: Scale) => {
    const horizontal = scale.isHorizontal();
    const length = horizontal ? scale.width : scale.height;
    // Before the first layout the axis has no length yet; a later pass gets the real one.
    return axisTickRoom({ lengthPx: length > 0 ? length : 200, horizontal, fontSize, label });
  };
  // The ticks found with the ends: a linear axis keeps them, as the report does (found again from
  // the widened ends, 0–174 ms widened to 0–180, they would step by 50 and leave 180 unlabelled).
  const ticksOf = new WeakMap<Scale, number[]>();
  return {
    // Chart.js would otherwise widen the ends to its own ticks.
    bounds: "data",
    afterDataLimits: (scale: Scale) => {
      const data = scale.getMinMax(true);
      const fixed = scale.getUserBounds();
      const { min, max, ticks } = axisTicks(
        {
          scale: scaleKind,
          dataMin: data.min,
          dataMax: data.max,
          min: fixed.minDefined ? fixed.min : undefined,
          max: fixed.maxDefined ? fixed.max : undefined,
          includeZero: spec.beginAtZero,
        },
        roomOf(scale),
      );
      scale.min = min;
      scale.max = max;
      ticksOf.set(scale, ticks);
    },
    afterBuildTicks: (scale: Scale) => {
      const { min, max } = scale;
      const extent = { scale: scaleKind, dataMin: min, dataMax: max, min, max } as const;
      // A log axis's ticks are thinned to its length, which the layout may have set since.
      const ticks =
        (scaleKind === "linear" ? ticksOf.get(scale) : undefined) ??
        axisTicks(extent, roomOf(scale)).ticks;
      scale.ticks = ticks.map((value) => ({ value }));
    },
  };
}

/** Tick labels for an axis of counts: whole numbers only, the fractional ticks left blank. */
export function integerTickLabel(value: number): string {
  return Number.isInteger(value) ? formatInteger(value) : "";
}

export function axis(theme: ChartTheme, spec: AxisSpec): ScaleOptions<AxisType> {
  const { tickLabel, tickValues } = spec;
  const tickFont = labelFont(theme);
  return {
    type: spec.type,
    min: spec.min,
    max: spec.max,
    beginAtZero: spec.beginAtZero,
    title: { display: true, text: spec.title, color: theme.text, font: chartFont(theme, 0.9) },
    grid: { color: theme.grid },
    border: { color: theme.grid },
    ticks: {
      display: spec.showTicks ?? true,
      color: theme.text,
      font: tickFont,
      // Every category is a bar that needs its name: Chart.js would drop the middle one of three
      // ("hedged" between normal and tied) when projector-size labels crowd; rotate them instead.
      ...(spec.type === "category" ? { autoSkip: false } : {}),
      ...(tickLabel ? { callback: (value: string | number) => tickLabel(Number(value)) } : {}),
    },
    ...(spec.type !== "category" && !tickValues
      ? sharedTicks(spec, tickFont.size, tickLabel ?? String)
      : {}),
    ...(tickValues
      ? {
          afterBuildTicks: (scale: { ticks: { value: number }[]; min: number; max: number }) => {
            scale.ticks = tickValues
              .filter((value) => value >= scale.min && value <= scale.max)
              .map((value) => ({ value }));
          },
        }
      : {}),
  } as ScaleOptions<AxisType>;
}

export interface LegendAndTooltipSpec {
  legend?: boolean;
  /**
   * Legend swatches as their datasets' markers, or as short lines in their dash, where lines
   * differ by those and not by colour alone (24 runs; the series colours come round again).
   */
  swatches?: "point" | "line";
  /** Datasets drawn only as helpers (a band's lower edge) get no legend entry. */
  inLegend?: (datasetIndex: number) => boolean;
  /**
   * Datasets of one group (e.g. a run's lines) are hidden and shown together by a click on the
   * group's legend entry.
   */
  toggleTogether?: (datasetIndex: number) => number;
  /** Datasets drawn only as helpers (a band's edges) get no tooltip line either. */
  inTooltip?: (datasetIndex: number) => boolean;
  /** A tooltip line for a dataset's y value, at `dataIndex` of its data. */
  tooltipLabel?: (label: string, value: number, datasetIndex: number, dataIndex: number) => string;
  /** The tooltip's title for the point under the pointer (its index in the dataset). */
  tooltipTitle?: (dataIndex: number) => string;
}

/**
 * Legend swatches drawn as a line in their dataset's dash, long enough for a dash-dot to show
 * once. Chart.js takes a point-styled swatch's dash from the point, which has none: the
 * dataset's is put back.
 */
const dashedLineSwatches = {
  usePointStyle: true,
  pointStyle: "line",
  pointStyleWidth: 32,
  generateLabels: (chart: Chart) =>
    Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => ({
      ...item,
      lineDash: (chart.data.datasets[item.datasetIndex ?? 0] as { borderDash?: number[] })
        ?.borderDash,
    })),
} as const;

/** Legend below the plot; clicking an entry hides or shows its line (Chart.js's default). */
export function legendAndTooltip(
  theme: ChartTheme,
  spec: LegendAndTooltipSpec = {},
): ChartOptions["plugins"] {
  const { inLegend, inTooltip, toggleTogether, tooltipLabel, tooltipTitle } = spec;
  return {
    legend: {
      display: spec.legend ?? true,
      position: "bottom",
      ...(toggleTogether
        ? {
            onClick: (_event, item, legend) => {
              const chart = legend.chart;
              const group = toggleTogether(item.datasetIndex ?? 0);
              const show = !chart.isDatasetVisible(item.datasetIndex ?? 0);
              chart.data.datasets.forEach((_dataset, index) => {
                if (toggleTogether(index) === group) chart.setDatasetVisibility(index, show);
              });
              chart.update();
            },
          }
        : {}),
      labels: {
        color: theme.text,
        font: labelFont(theme),
        boxWidth: 18,
        boxHeight: Math.max(3, theme.lineWidth),
        ...(spec.swatches === "point" ? { usePointStyle: true } : {}),
        ...(spec.swatches === "line" ? dashedLineSwatches : {}),
        ...(inLegend ? { filter: (item) => inLegend(item.datasetIndex ?? 0) } : {}),
      },
    },
    tooltip: {
      titleFont: labelFont(theme),
      bodyFont: labelFont(theme),
      ...(inTooltip ? { filter: (item) => inTooltip(item.datasetIndex) } : {}),
      callbacks: {
        ...(tooltipLabel
          ? {
              label: (item) =>
                tooltipLabel(
                  item.dataset.label ?? "",
                  item.parsed.y ?? 0,
                  item.datasetIndex,
                  item.dataIndex,
                ),
            }
          : {}),
        ...(tooltipTitle ? { title: (items) => tooltipTitle(items[0]?.dataIndex ?? 0) } : {}),
      },
    },
  };
}

/** chartjs-plugin-zoom's options, as its type augmentation adds them to Chart.js's plugins. */
type ZoomOptions = NonNullable<NonNullable<ChartOptions["plugins"]>["zoom"]>;

/**
 * Wheel zooms, drag pans, Shift+drag zooms into a range, all along x only and never past the
 * data; ChartCanvas's reset button undoes it.
 */
export function zoomAlongX(theme: ChartTheme): ZoomOptions {
  return {
    pan: { enabled: true, mode: "x" },
    zoom: {
      wheel: { enabled: true },
      pinch: { enabled: true },
      drag: {
        enabled: true,
        modifierKey: "shift",
        backgroundColor: withAlpha(seriesColor(theme, 0), 0.15),
      },
      mode: "x",
    },
    limits: { x: { min: "original", max: "original" } },
  };
}

/** Two ends along x, in the axis' units (a run's seconds). */
export interface XRange {
  min: number;
  max: number;
}

/**
 * A dragged range widened, where it holds fewer than two of the chart's points (their x values
 * `pointsX`), to the two around its middle: a drag inside one second of a 2-second run would
 * otherwise show an empty plot. Null, for no zoom, when the chart has fewer than two points.
 */
export function rangeWithPoints(range: XRange, pointsX: readonly number[]): XRange | null {
  const sorted = [...pointsX].sort((a, b) => a - b);
  if (sorted.length < 2) return null;
  const inside = sorted.filter((x) => x >= range.min && x <= range.max).length;
  if (inside >= 2) return range;
  const middle = (range.min + range.max) / 2;
  const firstAfter = sorted.findIndex((x) => x >= middle);
  const second = Math.max(1, firstAfter < 0 ? sorted.length - 1 : firstAfter);
  return {
    min: Math.min(range.min, sorted[second - 1]!),
    max: Math.max(range.max, sorted[second]!),
  };
}

/**
 * Drag (no modifier) zooms into a range along x and says where it went, for charts that zoom
 * together (a run's time charts): `onRange` gets the new ends, widened to hold two points
 * (rangeWithPoints); the caller draws every chart with them as its x axis's min and max. A drag
 * with nothing to zoom into leaves the chart over `drawn`, the range it showed.
 */
export function dragZoomAlongX(
  theme: ChartTheme,
  onRange: (range: XRange) => void,
  pointsX: readonly number[],
  drawn: XRange | null,
): ZoomOptions {
  return {
    zoom: {
      drag: { enabled: true, backgroundColor: withAlpha(seriesColor(theme, 0), 0.15) },
      mode: "x",
      onZoomComplete: ({ chart }) => {
        const dragged = { min: chart.scales.x?.min ?? 0, max: chart.scales.x?.max ?? 0 };
        const shown = rangeWithPoints(dragged, pointsX);
        const axis = shown === dragged ? undefined : chart.options.scales?.x;
        if (axis) {
          // The drag already set the axis; it draws the widened range (or the last) at once.
          axis.min = (shown ?? drawn)?.min;
          axis.max = (shown ?? drawn)?.max;
          chart.update("none");
        }
        if (shown) onRange(shown);
      },
    },
  };
}

/**
 * A line chart over time drawn over `range` (all of it when null), zooming by drag into a range
 * it hands to `onRange`: so charts that share one range zoom together. `pointsX`: where the
 * chart's points are along x (a run's seconds), so a zoom keeps some in sight.
 */
export function withTimeRange(
  config: ChartConfiguration<"line">,
  theme: ChartTheme,
  range: XRange | null,
  onRange: (range: XRange) => void,
  pointsX: readonly number[],
): ChartConfiguration<"line"> {
  const options = config.options ?? {};
  return {
    ...config,
    options: {
      ...options,
      scales: {
        ...options.scales,
        x: { ...options.scales?.x, ...(range ? { min: range.min, max: range.max } : {}) },
      },
      plugins: { ...options.plugins, zoom: dragZoomAlongX(theme, onRange, pointsX, range) },
    },
  };
}
