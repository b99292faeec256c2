import {
  formatInteger,
  formatMs,
  formatTick,
  histogramSeries,
  type HistogramAnalysis,
  type HistogramSeries,
} from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { axis, integerTickLabel, legendAndTooltip } from "../../shared/chart-options.ts";
import { seriesColor, withAlpha, type ChartTheme } from "../../shared/chart-theme.ts";

export function histogramConfig(
  theme: ChartTheme,
  data: HistogramSeries,
  logCounts: boolean,
  t: TFunction<"runs">,
): ChartConfiguration<"bar"> {
  const color = seriesColor(theme, 0);
  return {
    type: "bar",
    data: {
      // Each bar at its bin's middle on the bins' scale (a numeric axis reads its labels as
      // values): equally spaced there, so Chart.js draws them equally wide and edge to edge.
      labels: data.bars.map((bar) => bar.atMs),
      datasets: [
        {
          label: t("charts.requests"),
          data: data.bars.map((bar) => bar.count),
          backgroundColor: withAlpha(color, 0.75),
          borderColor: color,
          borderWidth: 1,
          barPercentage: 1,
          categoryPercentage: 1,
        },
      ],
    },
    options: {
      scales: {
        x: axis(theme, {
          type: data.binScale === "log" ? "logarithmic" : "linear",
          title: t("charts.latencyMs"),
          min: data.fromMs,
          max: data.toMs,
          tickLabel: formatTick,
        }),
        // Counts of 1 (a lone stall) must still get a bar: a log axis starts below 1.
        y: logCounts
          ? axis(theme, {
              type: "logarithmic",
              title: t("charts.requestsLog"),
              min: 0.5,
              tickLabel: integerTickLabel,
            })
          : axis(theme, {
              type: "linear",
              title: t("charts.requests"),
              beginAtZero: true,
              tickLabel: integerTickLabel,
            }),
      },
      plugins: legendAndTooltip(theme, {
        legend: false,
        tooltipTitle: (index) => {
          const bar = data.bars[index];
          return bar ? `${formatMs(bar.lowMs)} – ${formatMs(bar.highMs)} ms` : "";
        },
        tooltipLabel: (label, value) => `${label}: ${formatInteger(value)}`,
      }),
    },
  };
}

/** The latency distribution: how many requests took how long, log bins so stalls get a bar. */
export function HistogramChart({ analysis }: { analysis: HistogramAnalysis }) {
  const { t } = useTranslation("runs");
  const data = useMemo(() => histogramSeries(analysis.view), [analysis]);
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{t("charts.histogramTitle")}</h3>
        <p className="muted">{t("charts.histogramNote", { bins: data.bars.length })}</p>
      </figcaption>
      <ChartCanvas
        testId="histogram-chart"
        label={t("charts.histogramTitle")}
        deps={[data, t]}
        logScale
        build={(theme, view) => histogramConfig(theme, data, view.log, t)}
        attributes={{
          "data-total": data.totalCount,
          "data-bins": data.bars.length,
          "data-bin-scale": data.binScale,
        }}
      />
    </figure>
  );
}
