import type { Chart, Plugin } from "chart.js";
import { withAlpha, type ChartTheme } from "./chart-theme.ts";

/**
 * Where the pointer is along the x axis that several charts share (a run's seconds), so each of
 * them can draw a line there: the moment under the pointer on one chart, read on the others.
 */
export interface Crosshair {
  /** In the x axis' units; null when the pointer is over none of the charts. */
  readonly at: number | null;
  moveTo(at: number | null, from: Chart): void;
  /** Calls `redraw` when another chart moves the crosshair; returns the unsubscribe. */
  follow(chart: Chart, redraw: () => void): () => void;
}

export function createCrosshair(): Crosshair {
  const followers = new Map<Chart, () => void>();
  let at: number | null = null;
  return {
    get at() {
      return at;
    },
    moveTo(next, from) {
      if (next === at) return;
      at = next;
      for (const [chart, redraw] of followers) if (chart !== from) redraw();
    },
    follow(chart, redraw) {
      followers.set(chart, redraw);
      return () => followers.delete(chart);
    },
  };
}

/**
 * The crosshair's ink: the theme's chart text, a little see-through so it reads as a guide, not
 * data (3:1 or more on every theme's chart background, chart-overlay-contrast.test.ts).
 */
export function crosshairColor(theme: ChartTheme): string {
  return withAlpha(theme.text, 0.7);
}

/**
 * A Chart.js plugin that moves `crosshair` with the pointer over the plot and draws it as a thin
 * vertical line from the top of the plot to its bottom, where the x axis shows that value. The
 * canvas carries the value it drew (data-crosshair-x) for tests and tools.
 */
export function crosshairPlugin(crosshair: Crosshair, theme: ChartTheme): Plugin {
  const unfollow = new Map<Chart, () => void>();
  return {
    id: "crosshair",
    install(chart) {
      unfollow.set(
        chart,
        crosshair.follow(chart, () => chart.draw()),
      );
    },
    uninstall(chart) {
      unfollow.get(chart)?.();
      unfollow.delete(chart);
    },
    afterEvent(chart, args) {
      const { event } = args;
      const x = chart.scales.x;
      if (!x) return;
      if (event.type === "mouseout" || (event.type === "mousemove" && !args.inChartArea)) {
        if (crosshair.at === null) return;
        crosshair.moveTo(null, chart);
        args.changed = true;
      } else if (event.type === "mousemove" && event.x !== null) {
        crosshair.moveTo(x.getValueForPixel(event.x) ?? null, chart);
        args.changed = true;
      }
    },
    afterDatasetsDraw(chart) {
      const x = chart.scales.x;
      const at = crosshair.at;
      const shown = x && at !== null && at >= x.min && at <= x.max;
      if (!shown) {
        delete chart.canvas.dataset.crosshairX;
        return;
      }
      const pixel = x.getPixelForValue(at);
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.strokeStyle = crosshairColor(theme);
      ctx.lineWidth = Math.max(1, theme.lineWidth / 2);
      ctx.beginPath();
      ctx.moveTo(pixel, chartArea.top);
      ctx.lineTo(pixel, chartArea.bottom);
      ctx.stroke();
      ctx.restore();
      chart.canvas.dataset.crosshairX = String(at);
    },
  };
}
