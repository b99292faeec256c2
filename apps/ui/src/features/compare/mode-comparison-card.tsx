import {
  formatFixed,
  formatInteger,
  formatMiB,
  formatMs,
  formatPercent,
  formatTick,
  modeTailAxis,
  PERCENTILE_LABELS,
  type Palette,
  type PercentileKey,
} from "@taillab/report";
import type { ChartConfiguration } from "chart.js";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { PercentileChooser } from "../../shared/percentile-chooser.tsx";
import { axis, integerTickLabel, legendAndTooltip } from "../../shared/chart-options.ts";
import { withAlpha, type ChartTheme } from "../../shared/chart-theme.ts";
import type { ModeEntry } from "./mode-comparison.ts";
import { ModeVerdictList } from "./mode-verdict-list.tsx";

const MIB = 1024 * 1024;
/** The percentiles a mode entry has: those the table shows. */
const MODE_PERCENTILES = ["p50", "p99", "p999"] as const satisfies readonly PercentileKey[];
type ModePercentile = (typeof MODE_PERCENTILES)[number];
/** What losing attempts moved or how many were cancelled: the cost's colour, lighter. */
const WASTED_COLOR = (palette: Palette) => withAlpha(palette.cost, 0.45);

interface BarSeries {
  label: string;
  values: number[];
  /** The colour of what the bars mean (a percentile, the cost of backups). */
  color: (palette: Palette) => string;
  /** Right-hand axis: a second unit on the same chart. */
  right?: boolean;
}

/**
 * Bars of the modes compared, one group per run, a second unit on the right where asked; a log
 * left axis starts where modeTailAxis says, as the report's.
 */
export function barsConfig(
  theme: ChartTheme,
  categories: string[],
  series: BarSeries[],
  axes: { left: string; right?: string; logLeft?: boolean; rightIntegers?: boolean },
  format: (value: number, right: boolean) => string,
): ChartConfiguration<"bar"> {
  return {
    type: "bar",
    data: {
      labels: categories,
      datasets: series.map((entry) => ({
        label: entry.label,
        data: entry.values,
        backgroundColor: withAlpha(entry.color(theme.palette), 0.8),
        borderColor: entry.color(theme.palette),
        borderWidth: 1,
        yAxisID: entry.right ? "y1" : "y",
      })),
    },
    options: {
      scales: {
        x: axis(theme, { type: "category", title: "" }),
        y: axis(theme, {
          type: axes.logLeft ? "logarithmic" : "linear",
          title: axes.left,
          beginAtZero: !axes.logLeft,
          ...(axes.logLeft
            ? { min: modeTailAxis(series.flatMap((entry) => entry.values)).logMin }
            : {}),
          tickLabel: formatTick,
        }),
        ...(axes.right
          ? {
              y1: {
                ...axis(theme, {
                  type: "linear",
                  title: axes.right,
                  beginAtZero: true,
                  tickLabel: axes.rightIntegers ? integerTickLabel : formatTick,
                }),
                position: "right" as const,
                grid: { drawOnChartArea: false },
              },
            }
          : {}),
      },
      plugins: legendAndTooltip(theme, {
        tooltipLabel: (label, value, datasetIndex) =>
          `${label}: ${format(value, series[datasetIndex]?.right === true)}`,
      }),
    },
  };
}

/** A mode's bar label: the mode, and the run's name when two runs share the mode. */
function categoryLabels(entries: readonly ModeEntry[], t: TFunction<"runs">): string[] {
  return entries.map((entry) => {
    const mode = t(`modes.${entry.mode}`);
    const shared = entries.filter((other) => other.mode === entry.mode).length > 1;
    return shared ? `${mode} · ${entry.label}` : mode;
  });
}

/**
 * "Normal vs hedged vs tied" for a lecture: the tail each mode reached beside what its backups
 * cost, as a table and as two bar charts.
 */
export function ModeComparisonCard({ entries }: { entries: readonly ModeEntry[] }) {
  const { t } = useTranslation("compare");
  const { t: tRuns } = useTranslation("runs");
  const categories = categoryLabels(entries, tRuns);
  // Wasted bytes are the payload losing attempts moved. Losers cancelled before their answer's
  // body began (a stalled GET, a tied twin) moved none, and an axis of zeros says nothing: the
  // chart shows how many attempts were cancelled instead.
  const wasted = entries.some((entry) => entry.wastedBytes > 0);
  const work = entries.every((entry) => entry.served !== null);
  const [percentiles, setPercentiles] = useState<ModePercentile[]>([...MODE_PERCENTILES]);
  const shown = (key: ModePercentile) => entries.map((entry) => entry[`${key}Ms`]);
  return (
    <section className="card section" data-testid="mode-comparison" data-modes={entries.length}>
      <h2>{t("modes.title")}</h2>
      <p className="muted">{t("modes.intro")}</p>
      <ModeVerdictList entries={entries} />
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              <th>{t("modes.mode")}</th>
              <th>{t("table.run")}</th>
              <th className="number">p50 (ms)</th>
              <th className="number">p99 (ms)</th>
              <th className="number">p99.9 (ms)</th>
              <th className="number">{t("modes.extra")}</th>
              <th className="number">{t("modes.won")}</th>
              <th className="number">{t("modes.cancelled")}</th>
              <th className="number">{t("modes.wasted")}</th>
              {work ? (
                <th className="number" title={t("modes.servedHint")}>
                  {t("modes.served")}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr
                key={entry.runId}
                data-testid="mode-row"
                data-run-id={entry.runId}
                data-mode={entry.mode}
                data-p99-ms={entry.p99Ms}
                data-p999-ms={entry.p999Ms}
                data-extra-percent={entry.extraPct}
                data-wasted-bytes={entry.wastedBytes}
                data-served={entry.served ?? undefined}
              >
                <td>
                  <span className="badge" data-mode={entry.mode}>
                    {tRuns(`modes.${entry.mode}`)}
                  </span>
                </td>
                <td>{entry.label}</td>
                <td className="number">{formatMs(entry.p50Ms)}</td>
                <td className="number">{formatMs(entry.p99Ms)}</td>
                <td className="number strong">{formatMs(entry.p999Ms)}</td>
                <td className="number">{formatPercent(entry.extraPct)}</td>
                <td className="number">{formatInteger(entry.wonByBackup)}</td>
                <td className="number">{formatInteger(entry.cancelled)}</td>
                <td className="number">{formatMiB(entry.wastedBytes)}</td>
                {work ? <td className="number">{formatInteger(entry.served ?? 0)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="grid-2">
        <figure className="chart-card">
          <figcaption>
            <h3>{t("modes.tailChart")}</h3>
          </figcaption>
          <ChartCanvas
            testId="mode-tail-chart"
            label={t("modes.tailChart")}
            deps={[entries, percentiles, t]}
            logScale={modeTailAxis(percentiles.flatMap(shown)).logScale}
            tools={
              <PercentileChooser
                offered={MODE_PERCENTILES}
                chosen={percentiles}
                onChange={(chosen) => setPercentiles(chosen as ModePercentile[])}
                testId="mode-tail-percentile"
              />
            }
            attributes={{ "data-percentiles": percentiles.join(" ") }}
            build={(theme, view) =>
              barsConfig(
                theme,
                categories,
                percentiles.map((key) => ({
                  label: PERCENTILE_LABELS[key],
                  values: shown(key),
                  color: (palette) => palette.percentiles[key],
                })),
                { left: tRuns("charts.latencyMs"), logLeft: view.log },
                (value) => `${formatMs(value)} ms`,
              )
            }
          />
        </figure>
        <figure className="chart-card">
          <figcaption>
            <h3>{t("modes.costChart")}</h3>
            {wasted ? null : <p className="muted">{t("modes.nothingWasted")}</p>}
          </figcaption>
          <ChartCanvas
            testId="mode-cost-chart"
            label={t("modes.costChart")}
            deps={[entries, wasted, t]}
            attributes={{ "data-right-axis": wasted ? "wasted" : "cancelled" }}
            build={(theme) =>
              barsConfig(
                theme,
                categories,
                [
                  {
                    label: t("modes.extra"),
                    values: entries.map((entry) => entry.extraPct),
                    color: (palette) => palette.cost,
                  },
                  wasted
                    ? {
                        label: t("modes.wasted"),
                        values: entries.map((entry) => entry.wastedBytes / MIB),
                        color: WASTED_COLOR,
                        right: true,
                      }
                    : {
                        label: t("modes.cancelled"),
                        values: entries.map((entry) => entry.cancelled),
                        color: WASTED_COLOR,
                        right: true,
                      },
                ],
                {
                  left: t("modes.extra"),
                  right: wasted ? t("modes.wasted") : t("modes.cancelled"),
                  rightIntegers: !wasted,
                },
                (value, right) =>
                  !right
                    ? `${formatPercent(value)} %`
                    : wasted
                      ? `${formatFixed(value, 3)} MB`
                      : formatInteger(value),
              )
            }
          />
        </figure>
      </div>
    </section>
  );
}
