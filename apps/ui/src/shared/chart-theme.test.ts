import { describe, expect, it } from "vitest";
import { PALETTES } from "@taillab/report";
import { paletteNameOf, paletteTokens, seriesColor, withAlpha } from "./chart-theme.ts";
import { TEST_THEME as theme } from "./test-support/chart-theme-fixture.ts";

describe("chart theme helpers", () => {
  it("gives lines the series colours, round and round, none of them hedged's orange", () => {
    const { series, modes } = PALETTES.light;
    expect(seriesColor(theme, 0)).toBe(series[0]);
    expect(seriesColor(theme, series.length + 1)).toBe(series[1]);
    expect(series).not.toContain(modes.hedged);
  });

  it("keeps one meaning per colour: modes, percentiles, cost and models apart", () => {
    for (const palette of Object.values(PALETTES)) {
      const meanings = [
        ...Object.values(palette.modes),
        ...Object.values(palette.percentiles),
        palette.cost,
        ...Object.values(palette.models),
      ];
      expect(new Set(meanings).size).toBe(meanings.length);
    }
  });

  it("names the meanings as CSS custom properties, by the page's theme", () => {
    document.documentElement.dataset.theme = "dark";
    expect(paletteNameOf()).toBe("dark");
    expect(paletteTokens(PALETTES.dark)).toMatchObject({
      "--mode-hedged": PALETTES.dark.modes.hedged,
      "--pct-p999": PALETTES.dark.percentiles.p999,
      "--cost": PALETTES.dark.cost,
    });
    delete document.documentElement.dataset.theme;
    expect(paletteNameOf()).toBe("light");
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
