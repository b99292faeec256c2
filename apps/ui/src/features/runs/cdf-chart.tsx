import type { LatencyStats } from "@taillab/api";
import { fitHolds } from "@taillab/core";
import {
  cdfSeries,
  formatMs,
  formatSignificant,
  formatTick,
  PERCENTILE_LABELS,
  type CdfSeries,
  type CdfView,
  type HistogramAnalysis,
  type PercentileKey,
} from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas, type ChartView } from "../../shared/chart.tsx";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import { withAlpha, type ChartTheme } from "../../shared/chart-theme.ts";
import { PercentileChooser } from "../../shared/percentile-chooser.tsx";
import { CCDF_TICKS, verticalMarker } from "./cdf-chart-data.ts";

const MARKER_PERCENTILES: readonly PercentileKey[] = ["p50", "p90", "p99", "p999", "p9999"];

export function cdfConfig(
  theme: ChartTheme,
  data: CdfSeries,
  markers: readonly { key: PercentileKey; valueMs: number }[],
  t: TFunction<"runs">,
): ChartConfiguration<"line"> {
  const width = theme.lineWidth;
  const { models } = theme.palette;
  const tail = data.view === "ccdf";
  // The labs' question is the queueing model's: its curve is always drawn; the lognormal too
  // when it fits better. A legend click shows or hides either.
  const threshold = tail ? 0.01 : 0.99;
  return {
    type: "line",
    data: {
      datasets: [
        {
          label: t("charts.measuredCdf"),
          data: data.measured,
          borderColor: theme.text,
          borderWidth: width * 1.6,
        },
        {
          label: t("charts.exponentialModel"),
          data: data.exponential,
          borderColor: models.exponential,
          borderWidth: width,
          borderDash: [8, 5],
        },
        {
          label: t("charts.lognormalModel"),
          data: data.lognormal,
          borderColor: models.lognormal,
          borderWidth: width,
          borderDash: [2, 4],
          hidden: data.better.model !== "lognormal",
        },
        ...markers.map((marker) => ({
          label: t("charts.measuredPercentile", {
            percentile: PERCENTILE_LABELS[marker.key],
            value: formatMs(marker.valueMs),
          }),
          data: verticalMarker(marker.valueMs, data),
          borderColor: theme.palette.percentiles[marker.key],
          borderWidth: width,
        })),
        {
          label: t("charts.modelP99", { value: formatMs(data.better.predictedP99Ms) }),
          data: verticalMarker(data.better.predictedP99Ms, data),
          borderColor: models[data.better.model],
          borderWidth: width,
          borderDash: [8, 5],
        },
        {
          label: String(threshold),
          data: [
            { x: data.fromMs, y: threshold },
            { x: data.toMs, y: threshold },
          ],
          borderColor: withAlpha(theme.text, 0.5),
          borderWidth: Math.max(1, width / 2),
          borderDash: [4, 4],
        },
      ],
    },
    options: {
      parsing: false,
      elements: { point: { radius: 0, hitRadius: 4 } },
      interaction: { mode: "nearest", intersect: false },
      scales: {
        x: axis(theme, {
          type: data.logScale ? "logarithmic" : "linear",
          title: t("charts.latencyMs"),
          min: data.fromMs,
          max: data.toMs,
          tickLabel: formatTick,
        }),
        y: tail
          ? axis(theme, {
              type: "logarithmic",
              title: t("charts.ccdfAxis"),
              min: data.fractionMin,
              max: 1,
              tickValues: CCDF_TICKS.map((tick) => tick.fraction),
              tickLabel: (value) =>
                CCDF_TICKS.find((tick) => Math.abs(tick.fraction / value - 1) < 1e-6)?.label ?? "",
            })
          : axis(theme, { type: "linear", title: t("charts.cdfAxis"), min: 0, max: 1 }),
      },
      plugins: legendAndTooltip(theme, {
        tooltipLabel: (label, value) => `${label}: ${formatTick(value)}`,
      }),
    },
  };
}

/**
 * The CDF beside the labs' queueing model F(t) = 1 − e^(−α(t − t₀)) and a lognormal, fitted to the
 * stored histogram, with markers at the measured percentiles chosen (p99 first) and the better
 * model's p99. Its tail view (CCDF) puts the share of slower requests on a log axis of nines.
 */
export function CdfChart({
  analysis,
  stats,
}: {
  analysis: HistogramAnalysis;
  stats: LatencyStats;
}) {
  const { t } = useTranslation("runs");
  const [view, setView] = useState<CdfView>("cdf");
  const [shown, setShown] = useState<PercentileKey[]>(["p99"]);
  const measuredP99Ms = stats.p99;
  const auto = useMemo(() => cdfSeries(analysis, measuredP99Ms), [analysis, measuredP99Ms]);
  const dataFor = (chartView: ChartView) =>
    cdfSeries(analysis, measuredP99Ms, { log: chartView.log, view });
  const markers = shown.map((key) => ({ key, valueMs: stats[key] }));
  const { exponential, lognormal } = analysis.fits;
  const title = t("charts.cdfTitle");
  const predictedText = (fit: typeof exponential | typeof lognormal) =>
    fitHolds(fit)
      ? t("charts.predictedP99", { ms: formatMs(fit.predictedP99Ms) })
      : t("charts.notPredicted");
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{title}</h3>
        <p className="fit-verdict" data-testid="fit-verdict" data-fit-holds={auto.better.holds}>
          {t(auto.better.holds ? "charts.betterFit" : "charts.noFit", {
            model: t(`charts.models.${auto.better.model}`),
            ks: auto.better.ksDistance.toFixed(3),
            predicted: formatMs(auto.better.predictedP99Ms),
            measured: formatMs(measuredP99Ms),
          })}
        </p>
      </figcaption>
      <ChartCanvas
        testId="cdf-chart"
        label={title}
        deps={[analysis, stats, view, shown.join(), t]}
        logScale={auto.logScale}
        build={(theme, chartView) => cdfConfig(theme, dataFor(chartView), markers, t)}
        tools={
          <>
            <span className="segmented" role="group" aria-label={t("charts.cdfViewsLabel")}>
              {(["cdf", "ccdf"] as const).map((option) => (
                <button
                  key={option}
                  type="button"
                  className="chip small"
                  aria-pressed={view === option}
                  data-testid={`cdf-chart-view-${option}`}
                  onClick={() => setView(option)}
                >
                  {t(`charts.cdfViews.${option}`)}
                </button>
              ))}
            </span>
            <PercentileChooser
              offered={MARKER_PERCENTILES}
              chosen={shown}
              onChange={setShown}
              testId="cdf-chart-percentile"
            />
          </>
        }
        attributes={{
          "data-view": view,
          "data-fit-model": auto.better.model,
          "data-ks-distance": auto.better.ksDistance,
          "data-predicted-p99-ms": auto.better.holds ? auto.better.predictedP99Ms : undefined,
          "data-measured-p99-ms": measuredP99Ms,
          "data-log-scale": auto.logScale,
        }}
      />
      <ul className="fit-details muted">
        <li data-testid="fit-exponential">
          {t("charts.fitExponential", {
            t0: formatMs(exponential.t0Ms),
            alpha: formatSignificant(exponential.alphaPerMs),
            ks: exponential.ksDistance.toFixed(3),
            predicted: predictedText(exponential),
          })}
        </li>
        <li data-testid="fit-lognormal">
          {t("charts.fitLognormal", {
            median: formatMs(Math.exp(lognormal.mu)),
            sigma: formatSignificant(lognormal.sigma),
            ks: lognormal.ksDistance.toFixed(3),
            predicted: predictedText(lognormal),
          })}
        </li>
      </ul>
    </figure>
  );
}
