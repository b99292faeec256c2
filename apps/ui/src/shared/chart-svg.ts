/**
 * A drawn chart as a standalone SVG file: the same axes, lines, bands, bars and legend as on the
 * screen, at the same place, as vectors a report or a slide can scale. `readDrawnChart`
 * (chart-drawing.ts) takes the figures from Chart.js after it laid the chart out; this part is
 * plain text, so it is tested without a canvas.
 */

export type Pt = readonly [x: number, y: number];

export type DrawnShape =
  | { kind: "line"; points: Pt[]; color: string; width: number; dash: readonly number[] }
  | { kind: "area"; points: Pt[]; color: string }
  | { kind: "rect"; x: number; y: number; width: number; height: number; color: string }
  | { kind: "dot"; at: Pt; radius: number; color: string };

export interface DrawnText {
  at: Pt;
  text: string;
  anchor: "start" | "middle" | "end";
  /** Degrees, e.g. -90 for a y axis title. */
  rotate?: number;
  bold?: boolean;
}

export interface DrawnLegendEntry {
  /** Top left of the entry's swatch, which is `swatch` wide and as tall as the text. */
  at: Pt;
  swatch: number;
  text: string;
  color: string;
  dash: readonly number[];
  hidden: boolean;
}

export interface DrawnChart {
  width: number;
  height: number;
  background: string;
  text: string;
  grid: string;
  fontFamily: string;
  fontSize: number;
  /** The plot area: lines and bands are clipped to it. */
  area: { left: number; top: number; right: number; bottom: number };
  /** Grid lines, as segments. */
  gridLines: { from: Pt; to: Pt }[];
  labels: DrawnText[];
  shapes: DrawnShape[];
  legend: DrawnLegendEntry[];
}

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );

const num = (value: number) => String(Math.round(value * 10) / 10);
const points = (list: readonly Pt[]) => list.map(([x, y]) => `${num(x)},${num(y)}`).join(" ");
const dashAttr = (dash: readonly number[]) =>
  dash.length > 0 ? ` stroke-dasharray="${dash.map(num).join(" ")}"` : "";

function shapeSvg(shape: DrawnShape): string {
  switch (shape.kind) {
    case "line":
      return `<polyline points="${points(shape.points)}" fill="none" stroke="${escapeXml(shape.color)}" stroke-width="${num(shape.width)}" stroke-linejoin="round"${dashAttr(shape.dash)}/>`;
    case "area":
      return `<polygon points="${points(shape.points)}" fill="${escapeXml(shape.color)}" stroke="none"/>`;
    case "rect":
      return `<rect x="${num(shape.x)}" y="${num(shape.y)}" width="${num(shape.width)}" height="${num(shape.height)}" fill="${escapeXml(shape.color)}"/>`;
    case "dot":
      return `<circle cx="${num(shape.at[0])}" cy="${num(shape.at[1])}" r="${num(shape.radius)}" fill="${escapeXml(shape.color)}"/>`;
  }
}

function textSvg(label: DrawnText, size: number): string {
  const [x, y] = label.at;
  const rotate = label.rotate ? ` transform="rotate(${label.rotate} ${num(x)} ${num(y)})"` : "";
  const weight = label.bold ? ` font-weight="600"` : "";
  return `<text x="${num(x)}" y="${num(y)}" font-size="${num(size)}" text-anchor="${label.anchor}" dominant-baseline="middle"${weight}${rotate}>${escapeXml(label.text)}</text>`;
}

function legendSvg(entry: DrawnLegendEntry, size: number): string {
  const [x, y] = entry.at;
  const middle = y + size / 2;
  const opacity = entry.hidden ? ` opacity="0.4"` : "";
  return `<g${opacity}><line x1="${num(x)}" y1="${num(middle)}" x2="${num(x + entry.swatch)}" y2="${num(middle)}" stroke="${escapeXml(entry.color)}" stroke-width="${num(Math.max(3, size / 5))}"${dashAttr(entry.dash)}/>${textSvg({ at: [x + entry.swatch + size / 2, middle], text: entry.text, anchor: "start" }, size)}</g>`;
}

/** The chart as an SVG document, titled (for screen readers and file viewers) by `title`. */
export function drawnChartSvg(chart: DrawnChart, title: string): string {
  const { area } = chart;
  const clip = `<clipPath id="plot"><rect x="${num(area.left)}" y="${num(area.top)}" width="${num(area.right - area.left)}" height="${num(area.bottom - area.top)}"/></clipPath>`;
  const grid = chart.gridLines
    .map(
      ({ from, to }) =>
        `<line x1="${num(from[0])}" y1="${num(from[1])}" x2="${num(to[0])}" y2="${num(to[1])}"/>`,
    )
    .join("");
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(chart.width)}" height="${num(chart.height)}" viewBox="0 0 ${num(chart.width)} ${num(chart.height)}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<defs>${clip}</defs>`,
    `<rect width="100%" height="100%" fill="${escapeXml(chart.background)}"/>`,
    `<g stroke="${escapeXml(chart.grid)}" stroke-width="1">${grid}</g>`,
    `<g clip-path="url(#plot)">${chart.shapes.map(shapeSvg).join("")}</g>`,
    `<g fill="${escapeXml(chart.text)}" font-family="${escapeXml(chart.fontFamily)}">`,
    chart.labels.map((label) => textSvg(label, chart.fontSize)).join(""),
    chart.legend.map((entry) => legendSvg(entry, chart.fontSize)).join(""),
    `</g>`,
    `</svg>`,
  ].join("\n");
}
