import type { ChartOptions, ScaleOptions } from "chart.js";
import { withAlpha, type ChartTheme } from "./chart-theme.ts";

/**
 * The option pieces every TailLab chart shares, sized from the theme so projector mode's big type
 * and thick lines reach ticks, titles and legends too.
 */

export function chartFont(theme: ChartTheme, scale = 1): { size: number; family: string } {
  return { size: Math.round(theme.fontSize * scale), family: theme.fontFamily };
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
}

export function axis(theme: ChartTheme, spec: AxisSpec): ScaleOptions<AxisType> {
  const { tickLabel, tickValues } = spec;
  return {
    type: spec.type,
    min: spec.min,
    max: spec.max,
    beginAtZero: spec.beginAtZero,
    title: { display: true, text: spec.title, color: theme.text, font: chartFont(theme, 0.9) },
    grid: { color: theme.grid },
    border: { color: theme.grid },
    ticks: {
      color: theme.text,
      font: chartFont(theme, 0.85),
      ...(tickLabel ? { callback: (value: string | number) => tickLabel(Number(value)) } : {}),
    },
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
  /** Datasets drawn only as helpers (a band's lower edge) get no legend entry. */
  inLegend?: (datasetIndex: number) => boolean;
  /** A tooltip line for a dataset's value (the y value, or x on a horizontal chart). */
  tooltipLabel?: (label: string, value: number, datasetIndex: number) => string;
  /** The tooltip's title for the point under the pointer (its index in the dataset). */
  tooltipTitle?: (dataIndex: number) => string;
}

/** Legend below the plot; clicking an entry hides or shows its line (Chart.js's default). */
export function legendAndTooltip(
  theme: ChartTheme,
  spec: LegendAndTooltipSpec = {},
): ChartOptions["plugins"] {
  const { inLegend, tooltipLabel, tooltipTitle } = spec;
  return {
    legend: {
      display: spec.legend ?? true,
      position: "bottom",
      labels: {
        color: theme.text,
        font: chartFont(theme, 0.85),
        boxWidth: 18,
        boxHeight: Math.max(3, theme.lineWidth),
        ...(inLegend ? { filter: (item) => inLegend(item.datasetIndex ?? 0) } : {}),
      },
    },
    tooltip: {
      titleFont: chartFont(theme, 0.85),
      bodyFont: chartFont(theme, 0.85),
      callbacks: {
        ...(tooltipLabel
          ? {
              label: (item) =>
                tooltipLabel(item.dataset.label ?? "", item.parsed.y ?? 0, item.datasetIndex),
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
        backgroundColor: withAlpha(theme.series[0] ?? "#2f6fde", 0.15),
      },
      mode: "x",
    },
    limits: { x: { min: "original", max: "original" } },
  };
}
