import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PALETTES, type PaletteName } from "@taillab/report";
import { describe, expect, it } from "vitest";
import { crosshairColor } from "./chart-crosshair.ts";
import { overTimeChartConfig } from "./chart-over-time.ts";
import type { ChartTheme } from "./chart-theme.ts";
import { TEST_THEME } from "./test-support/chart-theme-fixture.ts";
import { contrastRatio, shownOver } from "./test-support/color-distance.ts";

/** theme.css's blocks, each the tokens it sets, by its selector as written. */
function themeBlocks(): Map<string, Record<string, string>> {
  const css = readFileSync(join(import.meta.dirname, "../app/theme.css"), "utf8");
  const blocks = new Map<string, Record<string, string>>();
  for (const [, selector, body] of css.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    const tokens = Object.fromEntries(
      [...body!.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\b/gi)].map(([, name, value]) => [
        name!,
        value!,
      ]),
    );
    blocks.set(selector!.replace(/\/\*[\s\S]*?\*\//g, "").trim(), tokens);
  }
  return blocks;
}

/** The chart's text and background tokens of each theme, projector mode's over its theme's. */
function chartThemes(): { name: string; theme: ChartTheme }[] {
  const blocks = themeBlocks();
  const block = (selector: string) => {
    const tokens = blocks.get(selector);
    if (!tokens) throw new Error(`theme.css has no block ${selector}`);
    return tokens;
  };
  const light = block(':root,\n[data-theme="light"]');
  const dark = { ...light, ...block(':root[data-theme="dark"]') };
  const themes: [string, PaletteName, Record<string, string>][] = [
    ["light", "light", light],
    ["dark", "dark", dark],
    [
      "projector light",
      "light",
      { ...light, ...block(':root[data-projector="true"][data-theme="light"]') },
    ],
    [
      "projector dark",
      "dark",
      { ...dark, ...block(':root[data-projector="true"][data-theme="dark"]') },
    ],
  ];
  return themes.map(([name, palette, tokens]) => ({
    name,
    theme: {
      ...TEST_THEME,
      text: tokens["--chart-text"]!,
      background: tokens["--surface"]!,
      palette: PALETTES[palette],
    },
  }));
}

describe("the lines and labels drawn over a time chart", () => {
  it.each(chartThemes())(
    "stand out 3:1 or more on the $name theme's chart: crosshair, knob markers and their labels",
    ({ theme }) => {
      const config = overTimeChartConfig(theme, [], {
        logScale: false,
        labels: {
          x: "s",
          y: "ms",
          cost: "%",
          markers: "knob changes",
          clientBound: "client",
          interval: "95 %",
          restsOn: () => "",
        },
        markers: [{ atMs: 1000, label: "replicas 3" }],
      });
      const surface = theme.background;
      const ratioOn = (ink: string, under: string) => contrastRatio(shownOver(ink, under), under);
      expect(ratioOn(crosshairColor(theme), surface)).toBeGreaterThanOrEqual(3);
      const markerLine = config.data.datasets.find((dataset) => dataset.label === "knob changes");
      expect(ratioOn(String(markerLine?.borderColor), surface)).toBeGreaterThanOrEqual(3);
      // A label's backing lets a little of what is under it through: the plot, or a line.
      const label = config.options?.plugins?.markerLabels;
      if (!label?.color || !label.background) throw new Error("no marker labels' colours");
      for (const under of [surface, ...Object.values(theme.palette.percentiles)]) {
        const backing = shownOver(label.background, shownOver(under, surface));
        expect(ratioOn(label.color, backing), `label over ${under}`).toBeGreaterThanOrEqual(3);
      }
    },
  );
});
