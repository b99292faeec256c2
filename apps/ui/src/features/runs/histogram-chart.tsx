import { formatInteger, formatMs, formatTick, type HistogramAnalysis } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { axis, integerTickLabel, legendAndTooltip } from "../../shared/chart-options.ts";
import { seriesColor, withAlpha, type ChartTheme } from "../../shared/chart-theme.ts";
import { histogramChartData, type HistogramData } from "./histogram-chart-data.ts";

function histogramConfig(
  theme: ChartTheme,
  data: HistogramData,
  logCounts: boolean,
  t: TFunction<"runs">,
): ChartConfiguration<"bar"> {
  const color = seriesColor(theme, 0);
  return {
    type: "bar",
    data: {
      // Log bins have equal ratios, so equal-width categories are a log latency axis.
      labels: data.bars.map((bar) => formatTick(Math.sqrt(bar.lowMs * bar.highMs))),
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
        x: axis(theme, { type: "category", title: t("charts.latencyMs") }),
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
  const data = useMemo(() => histogramChartData(analysis.view), [analysis]);
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
