import { formatMs, formatSignificant, formatTick } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import {
  MARKER_SERIES,
  seriesColor,
  withAlpha,
  type ChartTheme,
} from "../../shared/chart-theme.ts";
import { cdfChartData, verticalMarker, type CdfData } from "./cdf-chart-data.ts";
import type { PhaseAnalysis } from "./phase-analysis.ts";

/** Colour tokens of the two models: the same on every CDF in the app. */
const EXPONENTIAL_SERIES = 1;
const LOGNORMAL_SERIES = 2;

function cdfConfig(
  theme: ChartTheme,
  data: CdfData,
  t: TFunction<"runs">,
): ChartConfiguration<"line"> {
  const width = theme.lineWidth;
  const modelColor = seriesColor(
    theme,
    data.better.model === "exponential" ? EXPONENTIAL_SERIES : LOGNORMAL_SERIES,
  );
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
          borderColor: seriesColor(theme, EXPONENTIAL_SERIES),
          borderWidth: width,
          borderDash: [8, 5],
          // The worse fit starts hidden; its legend entry brings it back.
          hidden: data.better.model !== "exponential",
        },
        {
          label: t("charts.lognormalModel"),
          data: data.lognormal,
          borderColor: seriesColor(theme, LOGNORMAL_SERIES),
          borderWidth: width,
          borderDash: [2, 4],
          hidden: data.better.model !== "lognormal",
        },
        {
          label: t("charts.measuredP99", { value: formatMs(data.measuredP99Ms) }),
          data: verticalMarker(data.measuredP99Ms),
          borderColor: seriesColor(theme, MARKER_SERIES),
          borderWidth: width,
        },
        {
          label: t("charts.modelP99", { value: formatMs(data.better.predictedP99Ms) }),
          data: verticalMarker(data.better.predictedP99Ms),
          borderColor: modelColor,
          borderWidth: width,
          borderDash: [8, 5],
        },
        {
          label: "0.99",
          data: [
            { x: data.fromMs, y: 0.99 },
            { x: data.toMs, y: 0.99 },
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
          // The ends are data values (t₀, the padded maximum): round ticks only.
          boundTicks: false,
          tickLabel: formatTick,
        }),
        y: axis(theme, { type: "linear", title: t("charts.cdfAxis"), min: 0, max: 1 }),
      },
      plugins: legendAndTooltip(theme, {
        tooltipLabel: (label, value) => `${label}: ${formatTick(value)}`,
      }),
    },
  };
}

/**
 * The CDF beside the labs' queueing model F(t) = 1 − e^(−α(t − t₀)) and a lognormal, fitted to the
 * stored histogram; the better fit (smaller Kolmogorov–Smirnov distance) is drawn, the other one
 * a legend click away, with markers at the measured and the predicted p99.
 */
export function CdfChart({
  analysis,
  measuredP99Ms,
}: {
  analysis: PhaseAnalysis;
  measuredP99Ms: number;
}) {
  const { t } = useTranslation("runs");
  const data = useMemo(() => cdfChartData(analysis, measuredP99Ms), [analysis, measuredP99Ms]);
  const { exponential, lognormal } = analysis.fits;
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{t("charts.cdfTitle")}</h3>
        <p className="fit-verdict" data-testid="fit-verdict">
          {t("charts.betterFit", {
            model: t(`charts.models.${data.better.model}`),
            ks: data.better.ksDistance.toFixed(3),
            predicted: formatMs(data.better.predictedP99Ms),
            measured: formatMs(measuredP99Ms),
          })}
        </p>
      </figcaption>
      <ChartCanvas
        testId="cdf-chart"
        label={t("charts.cdfTitle")}
        deps={[data, t]}
        build={(theme) => cdfConfig(theme, data, t)}
        attributes={{
          "data-fit-model": data.better.model,
          "data-ks-distance": data.better.ksDistance,
          "data-predicted-p99-ms": data.better.predictedP99Ms,
          "data-measured-p99-ms": measuredP99Ms,
          "data-log-scale": data.logScale,
        }}
      />
      <ul className="fit-details muted">
        <li data-testid="fit-exponential">
          {t("charts.fitExponential", {
            t0: formatMs(exponential.t0Ms),
            alpha: formatSignificant(exponential.alphaPerMs),
            ks: exponential.ksDistance.toFixed(3),
            predicted: formatMs(exponential.predictedP99Ms),
          })}
        </li>
        <li data-testid="fit-lognormal">
          {t("charts.fitLognormal", {
            median: formatMs(Math.exp(lognormal.mu)),
            sigma: formatSignificant(lognormal.sigma),
            ks: lognormal.ksDistance.toFixed(3),
            predicted: formatMs(lognormal.predictedP99Ms),
          })}
        </li>
      </ul>
    </figure>
  );
}
