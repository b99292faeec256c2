import type { ComparisonMetric, RunComparison } from "@taillab/core";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { opTag } from "../runs/op-tag.ts";
import { pointText } from "../runs/points-text.ts";
import { allPointsRows, type ComparedRun } from "./compare-model.ts";
import { columns, FigureCell } from "./compare-table.tsx";

/**
 * Every point × phase of the compared runs, one column per run, in one figure the user chooses
 * (p99.9 first): how a whole sweep moved against the baseline. A row opens that point and phase
 * in the table above.
 */
export function AllPointsTable({
  comparison,
  runs,
  chosenKey,
  onChoose,
}: {
  comparison: RunComparison;
  runs: readonly ComparedRun[];
  chosenKey: string | null;
  onChoose: (key: string) => void;
}) {
  const { t } = useTranslation("compare");
  const { t: tRuns } = useTranslation("runs");
  const [metric, setMetric] = useState<ComparisonMetric>("p999Ms");
  const hedged = runs.some((run) => run.detail.summary.mode !== "normal");
  const offered = columns(hedged, t);
  const column = offered.find((entry) => entry.metric === metric) ?? offered[0]!;
  const rows = useMemo(() => allPointsRows(comparison, runs, metric), [comparison, runs, metric]);
  return (
    <section
      className="card section"
      data-testid="compare-all-points"
      data-rows={rows.length}
      data-metric={metric}
    >
      <div className="toolbar section-head">
        <h2>{t("allPoints.title")}</h2>
        <span className="toolbar-spacer" />
        <label className="inline-field">
          <span>{t("allPoints.metric")}</span>
          <select
            data-testid="compare-all-points-metric"
            value={metric}
            onChange={(event) => setMetric(event.target.value as ComparisonMetric)}
          >
            {offered.map((entry) => (
              <option key={entry.metric} value={entry.metric}>
                {entry.header}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted">{t("allPoints.intro")}</p>
      <div className="table-scroll">
        <table className="data compare-table">
          <thead>
            <tr>
              <th>{t("allPoints.point")}</th>
              <th>{t("allPoints.operation")}</th>
              {runs.map((run, index) => (
                <th key={run.runId} className="number">
                  {run.label}
                  {index === comparison.baselineIndex ? (
                    <span className="badge baseline">{t("table.baseline")}</span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={row.key}
                data-testid="compare-all-points-row"
                data-key={row.key}
                data-op={row.op}
                data-size-bytes={row.params.objectSizeBytes}
                aria-selected={row.key === chosenKey}
                className={`clickable${row.key === chosenKey ? " chosen" : ""}`}
                onClick={() => onChoose(row.key)}
              >
                <td className="nowrap">{pointText(row.params, tRuns)}</td>
                <td>{opTag(row.op, tRuns)}</td>
                {row.figures.map((figure, index) => (
                  <FigureCell
                    key={runs[index]?.runId ?? index}
                    figure={figure}
                    format={column.format}
                    isBaseline={index === comparison.baselineIndex}
                  />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
