import { PALETTES } from "@taillab/report";
import type { ChartTheme } from "../chart-theme.ts";

/** A chart theme as readChartTheme gives it on a light page in projector mode. */
export const TEST_THEME: ChartTheme = {
  background: "#ffffff",
  grid: "#eeeeee",
  text: "#333333",
  lineWidth: 4,
  fontSize: 20,
  labelSize: 20,
  fontFamily: "sans-serif",
  palette: PALETTES.light,
  bandAlpha: 0.3,
};
