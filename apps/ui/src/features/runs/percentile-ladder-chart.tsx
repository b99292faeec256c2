import { formatMs, formatTick, LADDER_TICKS, lookOf } from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { axis, legendAndTooltip } from "../../shared/chart-options.ts";
import { borderDashOf, type ChartTheme } from "../../shared/chart-theme.ts";
import { ladderLines, type LadderInput, type LadderLine } from "./percentile-ladder-data.ts";

export function ladderConfig(
  theme: ChartTheme,
  lines: readonly LadderLine[],
  log: boolean,
  t: TFunction<"runs">,
): ChartConfiguration<"line"> {
  const first = LADDER_TICKS[0]?.value ?? 0;
  const last = LADDER_TICKS.at(-1)?.value ?? 4;
  return {
    type: "line",
    data: {
      datasets: lines.map((line) => {
        const look = lookOf(theme.palette, line.color);
        return {
          label: line.label,
          data: line.points.map((point) => ({ x: point.nines, y: point.valueMs })),
          borderColor: look.color,
          backgroundColor: look.color,
          borderWidth: theme.lineWidth,
          borderDash: borderDashOf(look.dash),
          pointStyle: look.point,
          pointRadius: theme.lineWidth + 1.5,
        };
      }),
    },
    options: {
      parsing: false,
      interaction: { mode: "nearest", intersect: false },
      scales: {
        x: axis(theme, {
          type: "linear",
          title: t("charts.percentile"),
          min: first - 0.1,
          max: last + 0.1,
          tickValues: LADDER_TICKS.map((tick) => tick.value),
          tickLabel: (nines) =>
            LADDER_TICKS.find((tick) => Math.abs(tick.value - nines) < 1e-9)?.label ?? "",
        }),
        y: axis(theme, {
          type: log ? "logarithmic" : "linear",
          beginAtZero: !log,
          title: t("charts.latencyMs"),
          tickLabel: formatTick,
        }),
      },
      plugins: legendAndTooltip(theme, {
        swatches: "line",
        tooltipLabel: (label, value) => `${label}: ${formatMs(value)} ms`,
      }),
    },
  };
}

/**
 * Percentiles p50 … p99.99 on a "nines" axis (p90 → 1, p99 → 2, p99.9 → 3), latency on a log
 * axis: the tail reads as a slope. One line per input; a legend click hides one.
 */
export function PercentileLadderChart({
  inputs,
  title,
  testId,
}: {
  inputs: readonly LadderInput[];
  title: string;
  testId: string;
}) {
  const { t } = useTranslation("runs");
  const lines = useMemo(() => ladderLines(inputs), [inputs]);
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{title}</h3>
        <p className="muted">{t("charts.ladderNote")}</p>
      </figcaption>
      <ChartCanvas
        testId={testId}
        label={title}
        deps={[lines, t]}
        logScale
        build={(theme, view) => ladderConfig(theme, lines, view.log, t)}
        attributes={{ "data-lines": lines.length }}
      />
    </figure>
  );
}
