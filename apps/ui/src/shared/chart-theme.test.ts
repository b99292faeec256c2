import { describe, expect, it } from "vitest";
import { seriesColor, withAlpha, type ChartTheme } from "./chart-theme.ts";

const theme: ChartTheme = {
  grid: "#eee",
  text: "#333",
  lineWidth: 1.5,
  fontSize: 14,
  fontFamily: "sans-serif",
  series: ["#111111", "#222222", "#333333"],
  bandAlpha: 0.3,
};

describe("chart theme helpers", () => {
  it.each([
    [0, "#111111"],
    [2, "#333333"],
    [3, "#111111"],
    [7, "#222222"],
  ])("series %d gets %s", (index, color) => {
    expect(seriesColor(theme, index)).toBe(color);
  });

  it.each([
    ["#2f6fde", 0.2, "#2f6fde33"],
    ["#2f6fde", 1, "#2f6fdeff"],
    ["#2f6fde", 0, "#2f6fde00"],
    ["rgb(1, 2, 3)", 0.5, "rgb(1, 2, 3)"],
  ])("%s at alpha %d is %s", (color, alpha, expected) => {
    expect(withAlpha(color, alpha)).toBe(expected);
  });
});
