import {
  DASH_PATTERNS,
  PALETTES,
  seriesColorOf,
  type DashName,
  type Palette,
  type PaletteName,
} from "@taillab/report";

/**
 * Chart sizes and neutral colours from the CSS tokens of the current theme (app/theme.css), and
 * the colours with a meaning (modes, percentiles, cost, models, series) from report's palette.
 */
export interface ChartTheme {
  /** What the chart is drawn on (the card's surface): the background of a PNG or SVG copy. */
  background: string;
  grid: string;
  text: string;
  lineWidth: number;
  fontSize: number;
  /** Tick and legend labels (projector mode: 20 px, readable from the back row). */
  labelSize: number;
  fontFamily: string;
  palette: Palette;
  /** Opacity of filled bands (a timeline's min–max): a light page needs more to show them. */
  bandAlpha: number;
}

export function readChartTheme(element: Element = document.documentElement): ChartTheme {
  const style = getComputedStyle(element);
  const token = (name: string) => style.getPropertyValue(name).trim();
  return {
    background: token("--surface") || "#ffffff",
    grid: token("--chart-grid"),
    text: token("--chart-text"),
    lineWidth: Number(token("--chart-line-width")) || 1.5,
    // The body's size token (projector mode raises it), not the root's fixed 16 px.
    fontSize: parseFloat(token("--base-size")) || parseFloat(style.fontSize) || 14,
    labelSize: parseFloat(token("--chart-label-size")) || 12,
    fontFamily: token("--font") || style.fontFamily,
    palette: PALETTES[paletteNameOf(element)],
    bandAlpha: Number(token("--chart-band-alpha")) || 0.3,
  };
}

/** The palette of the theme the root shows (its data-theme). */
export function paletteNameOf(element: Element = document.documentElement): PaletteName {
  return element.getAttribute("data-theme") === "dark" ? "dark" : "light";
}

/** Line `index` of a chart whose lines are runs or groups of points. */
export function seriesColor(theme: ChartTheme, index: number): string {
  return seriesColorOf(theme.palette, index);
}

/** A dash as Chart.js's borderDash takes it (a mutable array of its own). */
export function borderDashOf(dash: DashName): number[] {
  return [...DASH_PATTERNS[dash]];
}

/**
 * The palette's meanings as CSS custom properties (--mode-hedged, --pct-p99, --cost), so badges
 * and figures in the page wear the same colours as the charts.
 */
export function paletteTokens(palette: Palette): Record<string, string> {
  return {
    ...Object.fromEntries(
      Object.entries(palette.modes).map(([mode, color]) => [`--mode-${mode}`, color]),
    ),
    ...Object.fromEntries(
      Object.entries(palette.percentiles).map(([key, color]) => [`--pct-${key}`, color]),
    ),
    "--cost": palette.cost,
  };
}

/**
 * A #rrggbb token with an alpha channel, for bands and fills that must let the grid and the
 * lines they surround show through. Any other colour form is returned as it is.
 */
export function withAlpha(color: string, alpha: number): string {
  if (!/^#[0-9a-f]{6}$/i.test(color)) return color;
  const byte = Math.round(Math.min(1, Math.max(0, alpha)) * 255);
  return `${color}${byte.toString(16).padStart(2, "0")}`;
}
