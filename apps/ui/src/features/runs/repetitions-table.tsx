import type { RunSummary } from "@taillab/api";
import { formatFixed } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { pointText } from "./points-text.ts";

/**
 * Points run k times (`repeat`): the cloud-testing paper's figures, each repetition's rate with
 * the highest and lowest dropped and the rest averaged. The table above merges the repetitions'
 * histograms instead, since percentiles are never averaged.
 */
export function RepetitionsTable({ summary }: { summary: RunSummary }) {
  const { t } = useTranslation("runs");
  const rows = summary.points.flatMap((point, pointIndex) =>
    (point.repetitionStats ?? []).map((stats) => ({ point, pointIndex, stats })),
  );
  if (rows.length === 0) return null;
  return (
    <section className="card section" data-testid="repetitions">
      <h2>{t("repetitions.title")}</h2>
      <p className="muted">{t("repetitions.intro")}</p>
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              <th>{t("results.point")}</th>
              <th>{t("results.operation")}</th>
              <th className="number">{t("repetitions.runs")}</th>
              <th className="number">ops/s</th>
              <th className="number">MB/s</th>
              <th>{t("repetitions.dropped")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ point, pointIndex, stats }) => (
              <tr
                key={`${pointIndex}-${stats.op}`}
                data-testid="repetition-row"
                data-point-index={pointIndex}
                data-op={stats.op}
                data-ops-per-sec={stats.opsPerSec.value}
                data-method={stats.opsPerSec.method}
              >
                <td className="nowrap">{pointText(point.params, t)}</td>
                <td>{t(`ops.${stats.op}`)}</td>
                <td className="number">
                  {stats.opsPerSec.runs}
                  {stats.opsPerSec.method === "mean" ? (
                    <span className="cell-note muted">{t("repetitions.plainMean")}</span>
                  ) : null}
                </td>
                <td className="number">
                  {formatFixed(stats.opsPerSec.value, 1)} ± {formatFixed(stats.opsPerSec.stdev, 1)}
                </td>
                <td className="number">
                  {formatFixed(stats.throughputMBps.value, 2)} ±{" "}
                  {formatFixed(stats.throughputMBps.stdev, 2)}
                </td>
                <td className="muted">
                  {stats.opsPerSec.dropped.length > 0
                    ? stats.opsPerSec.dropped.map((value) => formatFixed(value, 1)).join(", ")
                    : "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
