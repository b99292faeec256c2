import type { ChartType, Plugin } from "chart.js";
import { withAlpha, type ChartTheme } from "./chart-theme.ts";

/** A marker's label to write at the top of the plot: the x value its line stands at. */
export interface MarkerLabel {
  x: number;
  text: string;
}

export interface MarkerLabelsOptions {
  labels: readonly MarkerLabel[];
  /** The first of the markers' datasets: its legend entry hides the labels with the lines. */
  datasetIndex: number;
  color: string;
  background: string;
  fontSize: number;
  fontFamily: string;
}

declare module "chart.js" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- Chart.js's own signature
  interface PluginOptionsByType<TType extends ChartType> {
    /** Set by overTimeChartConfig; read by markerLabelsPlugin at each draw. */
    markerLabels?: MarkerLabelsOptions;
  }
}

/**
 * A marker label's ink and backing: the theme's chart text on its chart background, nearly opaque
 * so a line under the label does not cut its letters (chart-overlay-contrast.test.ts).
 */
export function markerLabelColors(
  theme: ChartTheme,
): Pick<MarkerLabelsOptions, "color" | "background"> {
  return { color: theme.text, background: withAlpha(theme.background, 0.85) };
}

/** A label put at the top of the plot, in pixels: where its text starts and on which row. */
export interface PlacedLabel {
  index: number;
  left: number;
  right: number;
  row: number;
}

/** Room between a marker's line and its label, and between two labels on a row. */
const PAD_PX = 4;

/**
 * Where each marker's label goes: beside its line (before it when it would run off the plot's
 * right), on the first row from the top where it overlaps no label already there. Markers close
 * together stack down the rows; a label that finds no row is left out (the tooltip and the list
 * under the chart still name it).
 */
export function placeMarkerLabels(
  markers: readonly { pixel: number; width: number }[],
  plot: { left: number; right: number },
  rows: number,
): PlacedLabel[] {
  const rowEnds: number[] = Array.from({ length: rows }, () => Number.NEGATIVE_INFINITY);
  const order = markers
    .map((_, index) => index)
    .sort((a, b) => markers[a]!.pixel - markers[b]!.pixel);
  return order.flatMap((index) => {
    const { pixel, width } = markers[index]!;
    const after = pixel + PAD_PX;
    const left = after + width <= plot.right ? after : pixel - PAD_PX - width;
    if (left < plot.left || pixel < plot.left || pixel > plot.right) return [];
    const row = rowEnds.findIndex((end) => end + PAD_PX <= left);
    if (row < 0) return [];
    rowEnds[row] = left + width;
    return [{ index, left, right: left + width, row }];
  });
}

/**
 * Writes the knob changes' labels on the chart at the top of the plot, each beside its dashed
 * line on a backing of the chart's background, stacked as placeMarkerLabels says. Its options
 * (plugins.markerLabels) are updated with the chart's, so a live chart's new markers show. The
 * canvas carries how many it wrote (data-marker-labels) for tests and tools.
 */
export const markerLabelsPlugin: Plugin<"line"> = {
  id: "markerLabels",
  afterDatasetsDraw(chart) {
    // Chart.js types a chart's options deeply partial; overTimeChartConfig sets them whole.
    const options = chart.options.plugins?.markerLabels as MarkerLabelsOptions | undefined;
    const x = chart.scales.x;
    // With no labels, `datasetIndex` may name no dataset at all.
    if (
      !options ||
      !x ||
      options.labels.length === 0 ||
      !chart.isDatasetVisible(options.datasetIndex)
    ) {
      chart.canvas.dataset.markerLabels = "0";
      return;
    }
    const { ctx, chartArea } = chart;
    ctx.save();
    ctx.font = `${options.fontSize}px ${options.fontFamily}`;
    const lineHeight = options.fontSize * 1.3;
    const placed = placeMarkerLabels(
      options.labels.map((label) => ({
        pixel: x.getPixelForValue(label.x),
        width: ctx.measureText(label.text).width,
      })),
      chartArea,
      // A third of the plot at most: the lines' tops stay in sight.
      Math.max(1, Math.floor(chartArea.height / 3 / lineHeight)),
    );
    ctx.textBaseline = "middle";
    for (const label of placed) {
      const middle = chartArea.top + lineHeight * (label.row + 0.5);
      ctx.fillStyle = options.background;
      ctx.fillRect(
        label.left - 2,
        middle - lineHeight / 2,
        label.right - label.left + 4,
        lineHeight,
      );
      ctx.fillStyle = options.color;
      ctx.fillText(options.labels[label.index]!.text, label.left, middle);
    }
    ctx.restore();
    chart.canvas.dataset.markerLabels = String(placed.length);
  },
};
