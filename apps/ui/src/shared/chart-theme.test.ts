import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DISTINCT_SERIES_LOOKS,
  familyShade,
  PALETTES,
  SERIES_COLOR_COUNT,
  seriesLookOf,
  type Palette,
  type PaletteName,
} from "@taillab/report";
import { paletteNameOf, paletteTokens, seriesColor, withAlpha } from "./chart-theme.ts";
import { TEST_THEME as theme } from "./test-support/chart-theme-fixture.ts";
import { colorDistance, contrastRatio, hueDistance } from "./test-support/color-distance.ts";

describe("chart theme helpers", () => {
  it("gives lines the series colours, round and round, none of them hedged's orange", () => {
    const { series, modes } = PALETTES.light;
    expect(seriesColor(theme, 0)).toBe(series[0]);
    expect(seriesColor(theme, series.length + 1)).toBe(series[1]);
    expect(series).not.toContain(modes.hedged);
  });

  it("gives each of 24 compared runs a look of its own: no (colour, dash) or (colour, marker) twice", () => {
    expect(DISTINCT_SERIES_LOOKS).toBeGreaterThanOrEqual(24);
    for (const palette of Object.values(PALETTES)) {
      // A run's dash and marker stay the same when the theme changes.
      expect(palette.series).toHaveLength(SERIES_COLOR_COUNT);
      const looks = Array.from({ length: 24 }, (_, index) => seriesLookOf(palette, index));
      expect(new Set(looks.map((look) => `${look.color} ${look.dash}`)).size).toBe(24);
      expect(new Set(looks.map((look) => `${look.color} ${look.point}`)).size).toBe(24);
      expect(seriesLookOf(palette, 24)).toEqual(looks[0]);
    }
  });

  it("draws every series colour at 3:1 or more on each theme's chart background, projector too", () => {
    // The chart sits on --surface: each theme block of theme.css that sets one, by its theme.
    const themeCss = readFileSync(join(import.meta.dirname, "../app/theme.css"), "utf8");
    const surfaces = [...themeCss.matchAll(/([^{}]+)\{[^}]*--surface:\s*(#[0-9a-f]{6})/gi)].map(
      ([, selector, surface]) => ({
        palette: (selector!.includes('"dark"') ? "dark" : "light") as PaletteName,
        surface: surface!,
      }),
    );
    expect(surfaces.map((entry) => entry.palette).sort()).toEqual(["dark", "dark", "light"]);
    for (const { palette, surface } of surfaces) {
      for (const color of PALETTES[palette].series) {
        expect(contrastRatio(color, surface), `${color} on ${surface}`).toBeGreaterThanOrEqual(3);
      }
    }
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

  it("keeps runs' colours (the series, but normal's blue) off every meaning's", () => {
    for (const palette of Object.values(PALETTES)) {
      const meanings = [
        ...Object.values(palette.modes).filter((color) => color !== palette.modes.normal),
        ...Object.values(palette.percentiles),
        palette.cost,
        ...Object.values(palette.models),
      ];
      for (const run of palette.series) {
        for (const meaning of meanings) expect(colorDistance(run, meaning)).toBeGreaterThan(20);
      }
    }
  });

  it.each([
    ["one per mode", (palette: Palette) => Object.values(palette.modes)],
    ["several of one mode", (palette: Palette) => palette.series.slice(0, 4)],
  ])(
    "shades runs' colours (%s) for three percentiles: each line apart, each of its run's hue",
    (_name, runsOf) => {
      for (const palette of Object.values(PALETTES)) {
        const runs = runsOf(palette);
        const shades = runs.map((run) =>
          [0, 1, 2].map((step) => familyShade(palette, run, step, 3)),
        );
        expect(shades.map((family) => family[1])).toEqual(runs);
        const all = shades.flat();
        for (const [index, shade] of all.entries()) {
          for (const other of all.slice(index + 1)) {
            expect(colorDistance(shade, other)).toBeGreaterThan(10);
          }
        }
        shades.forEach((family, run) => {
          for (const shade of family) expect(hueDistance(shade, runs[run]!)).toBeLessThan(20);
        });
      }
    },
  );

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
