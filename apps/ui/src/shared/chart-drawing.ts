import type { Chart, Scale } from "chart.js";
import type { ChartTheme } from "./chart-theme.ts";
import type { DrawnChart, DrawnLegendEntry, DrawnShape, DrawnText, Pt } from "./chart-svg.ts";

/** What Chart.js puts on a drawn element: its place in pixels and its resolved options. */
interface DrawnElement {
  x: number;
  y: number;
  base?: number;
  width?: number;
  skip?: boolean;
  options?: { radius?: number; backgroundColor?: unknown };
}

const colorOf = (value: unknown, fallback: string) =>
  typeof value === "string" ? value : fallback;

function tickLabel(label: unknown): string {
  return Array.isArray(label) ? label.join(" ") : String(label ?? "");
}

/** One axis: its grid lines across the plot, tick labels and title, where Chart.js put them. */
function axisDrawing(scale: Scale, chart: Chart, fontSize: number) {
  const area = chart.chartArea;
  const gridLines: DrawnChart["gridLines"] = [];
  const labels: DrawnText[] = [];
  const options = scale.options as {
    display?: boolean | "auto";
    position?: string;
    grid?: { display?: boolean; drawOnChartArea?: boolean };
    ticks?: { display?: boolean };
    title?: { display?: boolean; text?: string | string[] };
  };
  if (options.display === false) return { gridLines, labels };
  const horizontal = scale.isHorizontal();
  const onRight = options.position === "right";
  const drawGrid = options.grid?.display !== false && options.grid?.drawOnChartArea !== false;
  scale.ticks.forEach((tick, index) => {
    const px = scale.getPixelForTick(index);
    if (drawGrid) {
      gridLines.push(
        horizontal
          ? { from: [px, area.top], to: [px, area.bottom] }
          : { from: [area.left, px], to: [area.right, px] },
      );
    }
    const text = tickLabel(tick.label);
    if (options.ticks?.display === false || text === "") return;
    labels.push(
      horizontal
        ? { at: [px, scale.top + fontSize], text, anchor: "middle" }
        : onRight
          ? { at: [scale.left + fontSize * 0.5, px], text, anchor: "start" }
          : { at: [scale.right - fontSize * 0.5, px], text, anchor: "end" },
    );
  });
  const title = options.title?.display ? tickLabel(options.title.text) : "";
  if (title !== "") {
    const middle = horizontal ? (scale.left + scale.right) / 2 : (scale.top + scale.bottom) / 2;
    labels.push(
      horizontal
        ? { at: [middle, scale.bottom - fontSize * 0.6], text: title, anchor: "middle", bold: true }
        : {
            at: [onRight ? scale.right - fontSize * 0.7 : scale.left + fontSize * 0.7, middle],
            text: title,
            anchor: "middle",
            rotate: onRight ? 90 : -90,
            bold: true,
          },
    );
  }
  return { gridLines, labels };
}

function datasetShapes(chart: Chart, index: number, fallback: string): DrawnShape[] {
  const dataset = chart.data.datasets[index] as {
    borderColor?: unknown;
    backgroundColor?: unknown;
    borderWidth?: number;
    borderDash?: number[];
    fill?: unknown;
  };
  const meta = chart.getDatasetMeta(index);
  const elements = meta.data as unknown as DrawnElement[];
  if (meta.type === "bar") {
    return elements.map((bar) => {
      const width = bar.width ?? 0;
      const base = bar.base ?? bar.y;
      return {
        kind: "rect",
        x: bar.x - width / 2,
        y: Math.min(bar.y, base),
        width,
        height: Math.abs(base - bar.y),
        color: colorOf(bar.options?.backgroundColor ?? dataset.backgroundColor, fallback),
      };
    });
  }
  const shapes: DrawnShape[] = [];
  const line: Pt[] = elements.filter((point) => !point.skip).map((point) => [point.x, point.y]);
  // A band: this line filled down to the next dataset's (Chart.js's fill "+1").
  if (dataset.fill === "+1" && chart.isDatasetVisible(index + 1)) {
    const next = chart.getDatasetMeta(index + 1).data as unknown as DrawnElement[];
    const lower: Pt[] = next.filter((point) => !point.skip).map((point) => [point.x, point.y]);
    shapes.push({
      kind: "area",
      points: [...line, ...lower.reverse()],
      color: colorOf(dataset.backgroundColor, fallback),
    });
  }
  const width = dataset.borderWidth ?? 3;
  if (width > 0 && line.length > 1) {
    shapes.push({
      kind: "line",
      points: line,
      color: colorOf(dataset.borderColor, fallback),
      width,
      dash: dataset.borderDash ?? [],
    });
  }
  for (const point of elements) {
    const radius = point.options?.radius ?? 0;
    if (point.skip || radius <= 0) continue;
    shapes.push({
      kind: "dot",
      at: [point.x, point.y],
      radius,
      color: colorOf(point.options?.backgroundColor ?? dataset.borderColor, fallback),
    });
  }
  return shapes;
}

function legendEntries(chart: Chart): DrawnLegendEntry[] {
  const legend = chart.legend as
    | {
        options?: { display?: boolean; labels?: { boxWidth?: number } };
        legendItems?: {
          text: string;
          strokeStyle?: unknown;
          fillStyle?: unknown;
          lineWidth?: number;
          lineDash?: number[];
          hidden?: boolean;
        }[];
        legendHitBoxes?: { left: number; top: number }[];
      }
    | undefined;
  if (!legend || legend.options?.display === false) return [];
  const boxes = legend.legendHitBoxes ?? [];
  return (legend.legendItems ?? []).flatMap((item, index) => {
    const box = boxes[index];
    if (!box) return [];
    return [
      {
        at: [box.left, box.top] as Pt,
        swatch: legend.options?.labels?.boxWidth ?? 18,
        text: item.text,
        // A band has no outline: its fill stands for it.
        color: colorOf(item.lineWidth === 0 ? item.fillStyle : item.strokeStyle, "#000000"),
        dash: item.lineDash ?? [],
        hidden: item.hidden === true,
      },
    ];
  });
}

/** The chart as Chart.js laid it out (after its first draw), in the page's CSS pixels. */
export function readDrawnChart(chart: Chart, theme: ChartTheme): DrawnChart {
  const fontSize = theme.labelSize;
  const axes = Object.values(chart.scales).map((scale) => axisDrawing(scale, chart, fontSize));
  const fallback = theme.text;
  const shapes = chart.data.datasets.flatMap((_, index) =>
    chart.isDatasetVisible(index) ? datasetShapes(chart, index, fallback) : [],
  );
  return {
    width: chart.width,
    height: chart.height,
    background: theme.background,
    text: theme.text,
    grid: theme.grid,
    fontFamily: theme.fontFamily,
    fontSize,
    area: chart.chartArea,
    gridLines: axes.flatMap((entry) => entry.gridLines),
    labels: axes.flatMap((entry) => entry.labels),
    shapes,
    legend: legendEntries(chart),
  };
}
