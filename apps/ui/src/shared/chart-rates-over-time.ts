import type { IntervalStats } from "@taillab/api";
import { intervalRates } from "@taillab/core";
import { formatFixed, formatTick } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import { axis, legendAndTooltip } from "./chart-options.ts";
import { perSecondChartBase, secondsAxis } from "./chart-over-time.ts";
import { seriesColor, type ChartTheme } from "./chart-theme.ts";

/** Which rate of each second a chart draws (core's intervalRates). */
export type RateKind = "throughput" | "errors";

export interface RatesOverTimeLabels {
  x: string;
  y: string;
  /** The line's legend entry. */
  line: string;
}

/**
 * Answers or failures per second of a phase (its intervals, as the percentiles over time count
 * them): throughput in the first series colour, errors in the second, on a linear axis from 0.
 */
export function ratesOverTimeChartConfig(
  theme: ChartTheme,
  intervals: readonly IntervalStats[],
  options: { kind: RateKind; labels: RatesOverTimeLabels },
): ChartConfiguration<"line"> {
  const { kind, labels } = options;
  const color = seriesColor(theme, kind === "throughput" ? 0 : 1);
  const rates = intervals.map(intervalRates);
  const empty = intervals.length === 0;
  return {
    type: "line",
    data: {
      datasets: [
        {
          label: labels.line,
          data: rates.map((rate) => ({
            x: rate.atS,
            y: kind === "throughput" ? rate.opsPerSec : rate.errorsPerSec,
          })),
          borderColor: color,
          backgroundColor: color,
          borderWidth: theme.lineWidth,
        },
      ],
    },
    options: {
      ...perSecondChartBase(intervals.length),
      scales: {
        x: secondsAxis(theme, labels.x, intervals.length),
        y: axis(theme, {
          type: "linear",
          title: labels.y,
          beginAtZero: true,
          tickLabel: formatTick,
          showTicks: !empty,
        }),
      },
      plugins: legendAndTooltip(theme, {
        tooltipLabel: (label, value) => `${label}: ${formatFixed(value, 1)}`,
      }),
    },
  };
}
