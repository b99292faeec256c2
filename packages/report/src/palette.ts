import type { RequestMode } from "@taillab/api";

/**
 * Every colour a chart, badge or report uses, by what it means, in one place: the app's light
 * and dark themes and the HTML report (light) all take theirs from here. One meaning per colour:
 * orange is "hedged" and nothing else, red is "p99" (the labs' marker), "extra requests" has its
 * own; `series` (a run, or a group of sweep points) holds none of the meanings' colours but blue,
 * and stays apart from them (CIE76 ΔE ≥ 20, as close as the meanings come to one another).
 * Chosen to stay apart on a projector and for the common colour-vision deficiencies.
 */

/** The percentiles a chart can draw, by their key in core's LatencyStats. */
export type PercentileKey = "p50" | "p90" | "p99" | "p999" | "p9999";
export const PERCENTILE_KEYS: readonly PercentileKey[] = ["p50", "p90", "p99", "p999", "p9999"];
/** As people write them: p99.9, not p999. */
export const PERCENTILE_LABELS: Record<PercentileKey, string> = {
  p50: "p50",
  p90: "p90",
  p99: "p99",
  p999: "p99.9",
  p9999: "p99.99",
};

export interface Palette {
  modes: Record<RequestMode, string>;
  percentiles: Record<PercentileKey, string>;
  /** Extra requests and wasted bytes: what backups cost. */
  cost: string;
  /** The fitted latency models of the CDF. */
  models: { exponential: string; lognormal: string };
  /**
   * Where a request's time went (the tail breakdown), from the client to the last byte: greys
   * for the client's own waits, blue-grey for the server, a pale green for the transfer.
   */
  parts: Record<LatencyPart, string>;
  /** TailLab's own client as the bottleneck: its stall in the tail, the seconds it held up. */
  clientBound: string;
  /** Lines that stand for a run or a group of points, in order. */
  series: readonly string[];
  /** What charts are drawn on and written in: the ends a line's shades lean towards. */
  paper: string;
  ink: string;
}

/** The parts of a request's latency, in the order they happen (core's LatencyParts). */
export type LatencyPart =
  "clientQueue" | "connect" | "hedgeWait" | "upload" | "server" | "transfer";
export const LATENCY_PARTS: readonly LatencyPart[] = [
  "clientQueue",
  "connect",
  "hedgeWait",
  "upload",
  "server",
  "transfer",
];

export type PaletteName = "light" | "dark";

export const PALETTES: Record<PaletteName, Palette> = {
  light: {
    modes: {
      normal: "#2f6fde",
      hedged: "#e0662b",
      tied: "#1d8a4e",
      adaptive: "#8b46c9",
      // The tied family is green; cancelling at the server is its yellower shade.
      "tied-server": "#6f8f00",
    },
    percentiles: {
      p50: "#0f8b8d",
      p90: "#5f7896",
      p99: "#c62f3a",
      p999: "#9c2a7a",
      p9999: "#5a3a1e",
    },
    cost: "#a07800",
    models: { exponential: "#d6539b", lognormal: "#8c564b" },
    parts: {
      clientQueue: "#a3abb8",
      connect: "#c9a27e",
      hedgeWait: "#6b7584",
      upload: "#b86b8a",
      server: "#34506f",
      transfer: "#86b8a6",
    },
    clientBound: "#d99a1e",
    series: ["#2f6fde", "#7a1f1f", "#0b94d1", "#5e548e", "#b5838d", "#37474f"],
    paper: "#ffffff",
    ink: "#1b1f24",
  },
  dark: {
    modes: {
      normal: "#5a92ff",
      hedged: "#ff9a5c",
      tied: "#3fcf83",
      adaptive: "#c08cff",
      "tied-server": "#b9d84a",
    },
    percentiles: {
      p50: "#3dd6d0",
      p90: "#9fb3cc",
      p99: "#ff6b72",
      p999: "#f07ac8",
      p9999: "#d9a77a",
    },
    cost: "#e6c14a",
    models: { exponential: "#ff8fc8", lognormal: "#c99a80" },
    parts: {
      clientQueue: "#5d6675",
      connect: "#a07a58",
      hedgeWait: "#8c96a6",
      upload: "#c98aa6",
      server: "#a9c1dd",
      transfer: "#5f9684",
    },
    clientBound: "#f0c05a",
    series: ["#5a92ff", "#f8bbd0", "#4fc3f7", "#c5e1a5", "#7986cb", "#e0e0e0"],
    paper: "#1a1e24",
    ink: "#e7eaee",
  },
};

/** Line `index` of a chart whose lines are runs or groups: the series colours, round and round. */
export function seriesColorOf(palette: Palette, index: number): string {
  return palette.series[index % palette.series.length] as string;
}

/**
 * The line patterns a chart draws, as dash and gap lengths in px: the app's Chart.js
 * (borderDash) and the report's SVG (stroke-dasharray) draw the same ones.
 */
export const DASH_PATTERNS = {
  solid: [],
  dash: [10, 6],
  dot: [2, 5],
  dashDot: [10, 4, 2, 4],
} as const satisfies Record<string, readonly number[]>;
export type DashName = keyof typeof DASH_PATTERNS;

/** The marker shapes at a line's points, as Chart.js names them. */
export type PointShape = "circle" | "rect" | "triangle" | "rectRot";

/**
 * What tells one line among runs (or groups) apart besides its colour: once the series colours
 * come round again, a dash and a marker of their own, so 24 runs in a comparison are 24
 * different lines. A chart whose dashes already say something else (a sweep's percentiles) tells
 * runs apart by marker. The same in every theme: each palette has SERIES_COLOR_COUNT colours.
 */
export interface SeriesMarks {
  dash: DashName;
  point: PointShape;
}
export type SeriesLook = SeriesMarks & { color: string };

export const SERIES_COLOR_COUNT = 6;
/** One per round of the series colours. */
const SERIES_ROUNDS: readonly SeriesMarks[] = [
  { dash: "solid", point: "circle" },
  { dash: "dash", point: "rect" },
  { dash: "dot", point: "triangle" },
  { dash: "dashDot", point: "rectRot" },
];
/** How many runs (or groups) get a look of their own before the looks repeat. */
export const DISTINCT_SERIES_LOOKS = SERIES_COLOR_COUNT * SERIES_ROUNDS.length;

/** The dash and marker of line `index` among runs or groups. */
export function seriesMarksOf(index: number): SeriesMarks {
  return SERIES_ROUNDS[Math.floor(index / SERIES_COLOR_COUNT) % SERIES_ROUNDS.length]!;
}

/** Line `index` among runs or groups: colours first, then the next dash and marker. */
export function seriesLookOf(palette: Palette, index: number): SeriesLook {
  return { color: seriesColorOf(palette, index), ...seriesMarksOf(index) };
}

/**
 * Shade `step` of `count` in the family of `color`: when each of several runs (or groups) draws
 * several percentiles, the run keeps its hue and each percentile gets a shade of it, from the
 * paper's side (the lowest) to the ink's (the tail), so every line has a colour of its own and
 * still says whose it is. One shade is the colour itself.
 */
export function familyShade(palette: Palette, color: string, step: number, count: number): string {
  if (count <= 1) return color;
  // From 40 % towards the paper to 40 % towards the ink, the middle shade the colour itself:
  // apart enough to tell on a projector, near enough to stay the run's hue.
  const lean = -0.4 + (0.8 * step) / (count - 1);
  return mixHex(color, lean < 0 ? palette.paper : palette.ink, Math.abs(lean));
}

function mixHex(from: string, to: string, amount: number): string {
  const channels = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const [a, b] = [channels(from), channels(to)];
  return `#${a
    .map((value, index) => Math.round(value + ((b[index] as number) - value) * amount))
    .map((value) => value.toString(16).padStart(2, "0"))
    .join("")}`;
}

/** A line's colour by what it stands for: a run's mode, or its place among runs or groups. */
export type LineColor = { mode: RequestMode } | { series: number };

export function colorOf(palette: Palette, line: LineColor): string {
  return "mode" in line ? palette.modes[line.mode] : seriesColorOf(palette, line.series);
}

/** A line's dash and marker: a mode's are solid with dots, a place's its round's. */
export function lineMarksOf(line: LineColor): SeriesMarks {
  return seriesMarksOf("mode" in line ? 0 : line.series);
}

export function lookOf(palette: Palette, line: LineColor): SeriesLook {
  return { color: colorOf(palette, line), ...lineMarksOf(line) };
}

/**
 * What colours each of several runs: its mode when the runs are one per mode (normal vs hedged
 * vs tied), else its place among them.
 */
export function runLineColors(modes: readonly RequestMode[]): LineColor[] {
  const oneEach = new Set(modes).size === modes.length;
  return modes.map((mode, index) => (oneEach ? { mode } : { series: index }));
}

/** The look of each of several runs (see runLineColors). */
export function runLooks(palette: Palette, modes: readonly RequestMode[]): SeriesLook[] {
  return runLineColors(modes).map((line) => lookOf(palette, line));
}
