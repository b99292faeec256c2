/** Chart colours and line widths from the CSS tokens of the current theme (app/theme.css). */
export interface ChartTheme {
  grid: string;
  text: string;
  lineWidth: number;
  fontSize: number;
  series: string[];
}

export function readChartTheme(element: Element = document.documentElement): ChartTheme {
  const style = getComputedStyle(element);
  const token = (name: string) => style.getPropertyValue(name).trim();
  return {
    grid: token("--chart-grid"),
    text: token("--chart-text"),
    lineWidth: Number(token("--chart-line-width")) || 1.5,
    fontSize: parseFloat(style.fontSize) || 14,
    series: [1, 2, 3, 4, 5, 6].map((index) => token(`--chart-${index}`)),
  };
}
