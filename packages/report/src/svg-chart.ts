import { valueRange } from "@taillab/core";
import { markup, type HtmlValue, type SafeHtml } from "./html.ts";
import { axisTicks, axisTickRoom } from "./chart-ticks.ts";
import { formatTick } from "./report-format.ts";
import { DASH_PATTERNS, type DashName } from "./palette.ts";

/**
 * Line, band and bar charts as inline SVG, so a report needs no chart library and no network.
 * The legend is a row of buttons under the chart; the report's one script hides and shows the
 * SVG elements that carry the same data-series id as the button clicked.
 */

export type AxisScale = "linear" | "log";

export interface ChartTick {
  value: number;
  label: string;
}

export interface ChartAxis {
  label: string;
  scale: AxisScale;
  /** Fixed ends of the axis; otherwise taken from the data and rounded to tick values. */
  min?: number;
  max?: number;
  /** Linear axes: start at 0 even when the data does not. */
  includeZero?: boolean;
  /** Ticks to draw instead of computed ones (e.g. the sizes a sweep used, or p50 … p99.99). */
  ticks?: readonly ChartTick[];
  tickFormat?: (value: number) => string;
  /** Extra room at both ends, as a fraction of the axis, so end points are not cut in half. */
  pad?: number;
}

/** A point of a line; y null is a gap the line does not join across. */
export type Point = readonly [x: number, y: number | null];

export interface LineSeries {
  kind: "line";
  key: string;
  label: string;
  color: string;
  points: readonly Point[];
  dash?: DashName;
  width?: number;
  /** Dots at every point (lines with a single point always get one). */
  markers?: boolean;
}

export interface BandSeries {
  kind: "band";
  key: string;
  label: string;
  color: string;
  /** Ends null are a gap the band does not join across. */
  points: readonly { x: number; low: number | null; high: number | null }[];
}

export interface BarSeries {
  kind: "bars";
  key: string;
  label: string;
  color: string;
  bars: readonly { x0: number; x1: number; y: number }[];
  /** Fill opacity: lower for bars that shade stretches behind lines. */
  opacity?: number;
}

export type ChartSeries = LineSeries | BandSeries | BarSeries;

/** A vertical (axis "x") or horizontal (axis "y") reference line with a label. */
export interface ChartMarker {
  axis: "x" | "y";
  value: number;
  label: string;
  color: string;
  dash?: boolean;
  /** Hidden and shown with this series' legend entry. */
  seriesKey?: string;
}

export interface ChartSpec {
  /** Unique in the document: SVG ids and legend toggles are scoped by it. */
  id: string;
  title: string;
  x: ChartAxis;
  y: ChartAxis;
  series: readonly ChartSeries[];
  markers?: readonly ChartMarker[];
  height?: number;
  /** Shown under the legend. */
  caption?: HtmlValue;
  /** Legend buttons: by default only when there is more than one thing to toggle. */
  legend?: boolean;
  /** Tooltip of the legend buttons ("click to hide or show"). */
  legendHint?: string;
}

const WIDTH = 960;
const DEFAULT_HEIGHT = 420;
const MARGIN = { top: 20, right: 28, bottom: 70, left: 92 };
const TICK_FONT = 15;
const CHAR_WIDTH = TICK_FONT * 0.6;

interface Scale {
  toPx(value: number): number;
  accepts(value: number | null): value is number;
  ticks: ChartTick[];
}

function makeScale(axis: ChartAxis, data: readonly number[], from: number, to: number): Scale {
  const format = axis.tickFormat ?? formatTick;
  const log = axis.scale === "log";
  const explicit = axis.ticks?.map((tick) => tick.value) ?? [];
  // Given ticks mark the data's own values: the axis spans them as they are.
  const extent = valueRange(
    [...data, ...explicit].filter((value) => Number.isFinite(value) && (!log || value > 0)),
  );
  const dataMin = extent?.min ?? Number.NaN;
  const dataMax = extent?.max ?? Number.NaN;
  const shared = axisTicks(
    {
      scale: axis.scale,
      dataMin,
      dataMax,
      min: axis.min ?? (axis.ticks ? dataMin : undefined),
      max: axis.max ?? (axis.ticks ? dataMax : undefined),
      includeZero: axis.includeZero,
    },
    axisTickRoom({
      lengthPx: Math.abs(to - from) / (1 + 2 * (axis.pad ?? 0)),
      // x runs left to right; y from the bottom (more pixels) up.
      horizontal: to > from,
      fontSize: TICK_FONT,
      label: format,
    }),
  );
  const position = log ? Math.log10 : (value: number) => value;
  const low = position(shared.min);
  const high = position(shared.max);
  const pad = (axis.pad ?? 0) * (high - low);
  return {
    toPx: (value) =>
      from + ((position(value) - (low - pad)) / (high - low + 2 * pad)) * (to - from),
    accepts: (value): value is number =>
      value !== null && Number.isFinite(value) && (!log || value > 0),
    ticks: axis.ticks
      ? [...axis.ticks]
      : shared.ticks.map((value) => ({ value, label: format(value) })),
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

function seriesValues(series: readonly ChartSeries[], axis: "x" | "y"): number[] {
  const values: number[] = [];
  for (const entry of series) {
    if (entry.kind === "line") {
      for (const [px, py] of entry.points) {
        if (axis === "x") values.push(px);
        else if (py !== null) values.push(py);
      }
    } else if (entry.kind === "band") {
      for (const point of entry.points) {
        if (axis === "x") values.push(point.x);
        else if (point.low !== null && point.high !== null) values.push(point.low, point.high);
      }
    } else {
      for (const bar of entry.bars) {
        if (axis === "x") values.push(bar.x0, bar.x1);
        else values.push(bar.y);
      }
    }
  }
  return values;
}

/** Path data for points, starting a new segment wherever a point cannot be drawn (≤ 0 on log). */
function linePath(points: readonly Point[], x: Scale, y: Scale): string {
  let path = "";
  let pen = false;
  for (const [px, py] of points) {
    if (!x.accepts(px) || !y.accepts(py)) {
      pen = false;
      continue;
    }
    path += `${pen ? "L" : "M"}${round(x.toPx(px))} ${round(y.toPx(py))}`;
    pen = true;
  }
  return path;
}

/**
 * A band's stretches of drawable points, split wherever a point cannot be drawn (a gap, or ≤ 0
 * on log), as linePath splits a line.
 */
function bandSegments(
  points: BandSeries["points"],
  x: Scale,
  y: Scale,
): { x: number; low: number; high: number }[][] {
  const segments: { x: number; low: number; high: number }[][] = [[]];
  for (const point of points) {
    if (x.accepts(point.x) && y.accepts(point.low) && y.accepts(point.high)) {
      segments.at(-1)!.push({ x: point.x, low: point.low, high: point.high });
    } else if (segments.at(-1)!.length > 0) {
      segments.push([]);
    }
  }
  return segments.filter((segment) => segment.length > 0);
}

/** A dash's stroke-dasharray, the same on a chart's line and its legend swatch; none when solid. */
function dashArray(dash: DashName = "solid"): string | null {
  return DASH_PATTERNS[dash].length > 0 ? DASH_PATTERNS[dash].join(" ") : null;
}

interface Plot {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function renderSeries(
  entry: ChartSeries,
  dataId: string,
  x: Scale,
  y: Scale,
  plot: Plot,
): SafeHtml {
  if (entry.kind === "band") {
    const path = bandSegments(entry.points, x, y)
      .map((segment) => {
        const upper = segment.map(
          (point) => `${round(x.toPx(point.x))} ${round(y.toPx(point.high))}`,
        );
        const lower = segment
          .map((point) => `${round(x.toPx(point.x))} ${round(y.toPx(point.low))}`)
          .reverse();
        return `M${upper.join("L")}L${lower.join("L")}Z`;
      })
      .join("");
    if (!path) return markup``;
    return markup`<g data-series="${dataId}"
      ><path
        class="band"
        d="${path}"
        fill="${entry.color}"
        fill-opacity="0.28"
        stroke="${entry.color}"
        stroke-opacity="0.55"
        stroke-width="1"
    /></g>`;
  }
  if (entry.kind === "bars") {
    const bars = entry.bars
      .filter((bar) => y.accepts(bar.y) && bar.y > 0 && x.accepts(bar.x0) && x.accepts(bar.x1))
      .map((bar) => {
        const x0 = round(x.toPx(bar.x0));
        const x1 = round(x.toPx(bar.x1));
        const top = round(y.toPx(bar.y));
        const width = Math.max(1, round(x1 - x0 - 1));
        return `M${x0} ${plot.bottom}V${top}h${width}V${plot.bottom}Z`;
      });
    if (bars.length === 0) return markup``;
    return markup`<g data-series="${dataId}"
      ><path class="bars" d="${bars.join("")}" fill="${entry.color}" fill-opacity="${entry.opacity ?? 0.85}"
    /></g>`;
  }
  const path = linePath(entry.points, x, y);
  const drawable = entry.points.filter(
    (point): point is readonly [number, number] => x.accepts(point[0]) && y.accepts(point[1]),
  );
  const showMarkers = entry.markers || drawable.length === 1;
  const dash = dashArray(entry.dash);
  const markers = showMarkers
    ? drawable.map(
        ([px, py]) =>
          markup`<circle
            cx="${round(x.toPx(px))}"
            cy="${round(y.toPx(py))}"
            r="5"
            fill="${entry.color}"
          />`,
      )
    : [];
  return markup`<g data-series="${dataId}"
    >${
      path
        ? markup`<path
            class="line"
            d="${path}"
            fill="none"
            stroke="${entry.color}"
            stroke-width="${entry.width ?? 2.5}"
            stroke-linejoin="round"
            stroke-linecap="round"
            ${dash ? markup` stroke-dasharray="${dash}"` : ""}
          />`
        : ""
    }${markers}</g
  >`;
}

/** Tick labels that would overlap their left neighbour are left out (the tick stays). */
function thinLabels(ticks: readonly ChartTick[], toPx: (value: number) => number): Set<number> {
  const shown = new Set<number>();
  let lastRight = -Infinity;
  ticks.forEach((tick, index) => {
    const center = toPx(tick.value);
    const half = (tick.label.length * CHAR_WIDTH) / 2;
    if (center - half >= lastRight + 8) {
      shown.add(index);
      lastRight = center + half;
    }
  });
  return shown;
}

function renderMarkers(
  markers: readonly ChartMarker[],
  dataIdOf: (key: string | undefined) => string | null,
  x: Scale,
  y: Scale,
  plot: Plot,
): SafeHtml[] {
  let verticalIndex = 0;
  return markers.map((marker) => {
    const scale = marker.axis === "x" ? x : y;
    if (!scale.accepts(marker.value)) return markup``;
    const position = round(scale.toPx(marker.value));
    const dataId = dataIdOf(marker.seriesKey);
    const dash = marker.dash ? markup` stroke-dasharray="8 5"` : "";
    const group = dataId ? markup` data-series="${dataId}"` : "";
    if (marker.axis === "x") {
      // Labels sit low, right of their line: a CDF has reached the top by then, so it is empty.
      const labelY = plot.bottom - 12 - verticalIndex * 22;
      verticalIndex += 1;
      const nearRight = position > plot.right - 200;
      return markup`<g class="marker" ${group}
        ><line
          x1="${position}"
          x2="${position}"
          y1="${plot.top}"
          y2="${plot.bottom}"
          stroke="${marker.color}"
          stroke-width="2"
          ${dash}
        /><text
          class="marker-label"
          x="${nearRight ? position - 6 : position + 6}"
          y="${labelY}"
          text-anchor="${nearRight ? "end" : "start"}"
          fill="${marker.color}"
          >${marker.label}</text
        ></g
      >`;
    }
    return markup`<g class="marker" ${group}
      ><line
        x1="${plot.left}"
        x2="${plot.right}"
        y1="${position}"
        y2="${position}"
        stroke="${marker.color}"
        stroke-width="1.5"
        ${dash}
      /><text
        class="marker-label"
        x="${plot.right - 6}"
        y="${position - plot.top < 24 ? position + 18 : position - 6}"
        text-anchor="end"
        fill="${marker.color}"
        >${marker.label}</text
      ></g
    >`;
  });
}

function legendSwatch(entry: ChartSeries): SafeHtml {
  if (entry.kind === "band") {
    return markup`<svg class="swatch" viewBox="0 0 32 16" width="32" height="16" aria-hidden="true">
      <rect
        x="1"
        y="2"
        width="30"
        height="12"
        fill="${entry.color}"
        fill-opacity="0.3"
        stroke="${entry.color}"
        stroke-opacity="0.6"
      />
    </svg>`;
  }
  if (entry.kind === "bars") {
    return markup`<svg class="swatch" viewBox="0 0 32 16" width="32" height="16" aria-hidden="true">
      <rect x="6" y="1" width="20" height="14" fill="${entry.color}" fill-opacity="0.85" />
    </svg>`;
  }
  const dash = dashArray(entry.dash);
  return markup`<svg class="swatch" viewBox="0 0 32 16" width="32" height="16" aria-hidden="true">
    <line
      x1="2"
      y1="8"
      x2="30"
      y2="8"
      stroke="${entry.color}"
      stroke-width="3"
      ${dash ? markup` stroke-dasharray="${dash}"` : ""}
    />
  </svg>`;
}

/** A chart as a <figure>: title, SVG, legend buttons, caption. */
export function renderChart(spec: ChartSpec): SafeHtml {
  const height = spec.height ?? DEFAULT_HEIGHT;
  const plot: Plot = {
    left: MARGIN.left,
    right: WIDTH - MARGIN.right,
    top: MARGIN.top,
    bottom: height - MARGIN.bottom,
  };
  const markers = spec.markers ?? [];
  const xValues = [
    ...seriesValues(spec.series, "x"),
    ...markers.filter((marker) => marker.axis === "x").map((marker) => marker.value),
  ];
  const yValues = [
    ...seriesValues(spec.series, "y"),
    ...markers.filter((marker) => marker.axis === "y").map((marker) => marker.value),
  ];
  const x = makeScale(spec.x, xValues, plot.left, plot.right);
  const y = makeScale(spec.y, yValues, plot.bottom, plot.top);

  const keys: string[] = [];
  for (const entry of spec.series) if (!keys.includes(entry.key)) keys.push(entry.key);
  const dataIdOf = (key: string | undefined): string | null => {
    const index = key === undefined ? -1 : keys.indexOf(key);
    return index < 0 ? null : `${spec.id}-s${index}`;
  };

  const xTicks = x.ticks;
  const shownX = thinLabels(xTicks, x.toPx);
  const grid = [
    ...y.ticks.map((tick) => {
      const py = round(y.toPx(tick.value));
      return markup`<line
          class="grid"
          x1="${plot.left}"
          x2="${plot.right}"
          y1="${py}"
          y2="${py}"
        /><text class="tick" x="${plot.left - 10}" y="${py + 5}" text-anchor="end"
          >${tick.label}</text
        >`;
    }),
    ...xTicks.map((tick, index) => {
      const px = round(x.toPx(tick.value));
      return markup`<line
          class="grid grid-x"
          x1="${px}"
          x2="${px}"
          y1="${plot.top}"
          y2="${plot.bottom}"
        />${
          shownX.has(index)
            ? markup`<text class="tick" x="${px}" y="${plot.bottom + 24}" text-anchor="middle"
                >${tick.label}</text
              >`
            : ""
        }`;
    }),
  ];
  const clipId = `${spec.id}-clip`;
  const titleId = `${spec.id}-title`;
  const legendEntries = keys.map((key, index) => {
    const entry = spec.series.find((candidate) => candidate.key === key) as ChartSeries;
    return markup`<button
      type="button"
      class="legend-entry"
      data-series="${spec.id}-s${index}"
      aria-pressed="true"
      ${spec.legendHint ? markup`title="${spec.legendHint}"` : ""}
    >
      ${legendSwatch(entry)}<span>${entry.label}</span>
    </button>`;
  });
  const svg = markup`<svg
    class="chart"
    id="${spec.id}"
    viewBox="0 0 ${WIDTH} ${height}"
    role="img"
    aria-labelledby="${titleId}"
    preserveAspectRatio="xMidYMid meet"
  >
    <title id="${titleId}">${spec.title}</title>
    <defs>
      <clipPath id="${clipId}">
        <rect
          x="${plot.left - 6}"
          y="${plot.top - 6}"
          width="${plot.right - plot.left + 12}"
          height="${plot.bottom - plot.top + 12}"
        />
      </clipPath>
    </defs>
    <rect
      class="plot-bg"
      x="${plot.left}"
      y="${plot.top}"
      width="${plot.right - plot.left}"
      height="${plot.bottom - plot.top}"
    />
    ${grid}
    <g clip-path="url(#${clipId})">
      ${spec.series.map((entry) =>
        renderSeries(entry, dataIdOf(entry.key) as string, x, y, plot),
      )}${renderMarkers(markers, dataIdOf, x, y, plot)}
    </g>
    <line
      class="axis"
      x1="${plot.left}"
      x2="${plot.right}"
      y1="${plot.bottom}"
      y2="${plot.bottom}"
    />
    <line class="axis" x1="${plot.left}" x2="${plot.left}" y1="${plot.top}" y2="${plot.bottom}" />
    <text
      class="axis-label"
      x="${(plot.left + plot.right) / 2}"
      y="${height - 16}"
      text-anchor="middle"
    >
      ${spec.x.label}
    </text>
    <text
      class="axis-label"
      transform="translate(22 ${(plot.top + plot.bottom) / 2}) rotate(-90)"
      text-anchor="middle"
    >
      ${spec.y.label}
    </text>
  </svg>`;
  // The axes' scales and tick values, for a reader (or a test) to compare with the app's.
  const tickValues = (scale: Scale) => scale.ticks.map((tick) => tick.value).join(" ");
  const scales = markup`data-x-scale="${spec.x.scale}" data-y-scale="${spec.y.scale}"
    data-x-ticks="${tickValues(x)}" data-y-ticks="${tickValues(y)}"`;
  return markup`<figure class="chart-figure" ${scales} data-chart="${spec.id}">
    <figcaption class="chart-title">${spec.title}</figcaption>
    ${svg}${
      (spec.legend ?? legendEntries.length > 1)
        ? markup`<div class="legend" role="group">${legendEntries}</div>`
        : ""
    }${spec.caption ? markup`<p class="chart-caption">${spec.caption}</p>` : ""}
  </figure>`;
}
