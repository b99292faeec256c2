/** Chart colours and line widths from the CSS tokens of the current theme (app/theme.css). */
export interface ChartTheme {
  grid: string;
  text: string;
  lineWidth: number;
  fontSize: number;
  fontFamily: string;
  series: string[];
  /** Opacity of filled bands (a timeline's min–max): a light page needs more to show them. */
  bandAlpha: number;
}

export function readChartTheme(element: Element = document.documentElement): ChartTheme {
  const style = getComputedStyle(element);
  const token = (name: string) => style.getPropertyValue(name).trim();
  return {
    grid: token("--chart-grid"),
    text: token("--chart-text"),
    lineWidth: Number(token("--chart-line-width")) || 1.5,
    // The body's size token (projector mode raises it), not the root's fixed 16 px.
    fontSize: parseFloat(token("--base-size")) || parseFloat(style.fontSize) || 14,
    fontFamily: token("--font") || style.fontFamily,
    series: [1, 2, 3, 4, 5, 6].map((index) => token(`--chart-${index}`)),
    bandAlpha: Number(token("--chart-band-alpha")) || 0.3,
  };
}

/** Index of the red series token: p99 markers are red on every chart. */
export const MARKER_SERIES = 4;

/** The theme's series colours, round and round: line `index` of a chart. */
export function seriesColor(theme: ChartTheme, index: number): string {
  const colors = theme.series.filter(Boolean);
  return colors.length > 0 ? (colors[index % colors.length] as string) : "#2f6fde";
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
