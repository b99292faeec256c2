import { ChartFileSubject } from "../../shared/chart-file-name.ts";
import type { RunDetail } from "@taillab/api";
import { compareRuns } from "@taillab/core";
import { runLineColors } from "@taillab/report";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "../../app/navigation-store.ts";
import { useSettings } from "../../app/settings-store.ts";
import { formatRunDate } from "../runs/run-date.ts";
import { useRunNameText } from "../experiments/experiment-text.ts";
import { CopyTextButton } from "../runs/copy-text-button.tsx";
import { ExportMenu } from "../runs/export-menu.tsx";
import { PercentileLadderChart } from "../runs/percentile-ladder-chart.tsx";
import type { LadderInput } from "../runs/percentile-ladder-data.ts";
import { findHistograms } from "../runs/phase-analysis.ts";
import { pointText } from "../runs/points-text.ts";
import { SweepSection } from "../runs/sweep-section.tsx";
import {
  baselineChoices,
  compareTableRows,
  defaultRowKey,
  phaseOnRow,
  rowKey,
  runLabels,
  variedParams,
  type ComparedRun,
} from "./compare-model.ts";
import { useCompare } from "./compare-store.ts";
import { AllPointsTable } from "./all-points-table.tsx";
import { CompareTable } from "./compare-table.tsx";
import { compareText } from "./compare-text.ts";
import { ModeComparisonCard } from "./mode-comparison-card.tsx";
import { differsByMode } from "@taillab/core";
import { modeComparison } from "./mode-comparison.ts";
import { RunPicker } from "./run-picker.tsx";

/** Several runs against a baseline: their tails, their sweeps and, across modes, their cost. */
export function CompareView({ runIds }: { runIds: string[] }) {
  const { t, i18n } = useTranslation("compare");
  const { t: tRuns } = useTranslation("runs");
  const navigate = useNavigation((state) => state.navigate);
  const details = useCompare((state) => state.details);
  const errors = useCompare((state) => state.errors);
  const loading = useCompare((state) => state.loading);
  const baselineId = useCompare((state) => state.baselineId);
  const chosenKey = useCompare((state) => state.rowKey);
  const { setBaseline, setRowKey } = useCompare.getState();
  const routeKey = runIds.join("\n");
  const nameText = useRunNameText();
  // Open while there is nothing to compare; after that the user decides.
  const [pickerOpen, setPickerOpen] = useState(runIds.length < 2);

  useEffect(() => {
    void useCompare.getState().load(routeKey ? routeKey.split("\n") : []);
  }, [routeKey]);

  const language = useSettings((state) => state.language);
  const runs = useMemo((): ComparedRun[] => {
    const loaded = runIds
      .map((runId) => details[runId])
      .filter((detail): detail is RunDetail => detail !== undefined);
    const labels = runLabels(loaded, nameText);
    return loaded.map((detail, index) => ({
      runId: detail.meta.id,
      label: labels[index] ?? detail.meta.id,
      detail,
    }));
  }, [details, runIds, nameText]);
  const baselineIndex = Math.max(
    0,
    runs.findIndex((run) => run.runId === baselineId),
  );
  const comparison = useMemo(
    () =>
      runs.length > 0
        ? compareRuns(
            runs.map((run) => run.detail.summary),
            baselineIndex,
          )
        : null,
    [runs, baselineIndex],
  );
  const pairedInOrder = comparison?.pairings.some((entry) => entry.pairing === "in-order") ?? false;
  const key =
    comparison && chosenKey && comparison.rows.some((row) => rowKey(row) === chosenKey)
      ? chosenKey
      : comparison
        ? defaultRowKey(comparison)
        : null;
  const row = comparison?.rows.find((entry) => rowKey(entry) === key) ?? null;
  const tableRows = useMemo(
    () => (comparison && key ? compareTableRows(comparison, runs, key) : []),
    [comparison, runs, key],
  );
  // What the runs paired in order differ in, named once above the table.
  const varied = variedParams(tableRows);
  const pairedNote =
    varied.length > 0
      ? t("pairedDiffer", {
          params: new Intl.ListFormat(i18n.language).format(
            varied.map((param) => t(`params.${param}`)),
          ),
        })
      : t("pairedInOrder");
  const colors = useMemo(() => runLineColors(runs.map((run) => run.detail.summary.mode)), [runs]);
  const ladderInputs = useMemo(
    (): LadderInput[] =>
      row
        ? runs.flatMap((run, index) => {
            const found = phaseOnRow(run, row, index);
            if (!found) return [];
            const stored = findHistograms(run.detail.histograms, found.pointIndex, row.op);
            return [
              {
                label: run.label,
                histogram: stored?.latency ?? null,
                stats: found.phase.latencyMs,
                color: colors[index],
              },
            ];
          })
        : [],
    [runs, row, colors],
  );
  const modes = useMemo(
    () =>
      row && differsByMode(runs.map((run) => run.detail.summary)) ? modeComparison(runs, row) : [],
    [runs, row],
  );
  const sweepRuns = useMemo(
    () =>
      runs
        .filter((run) => run.detail.summary.points.length > 1)
        .map((run) => ({ label: run.label, summary: run.detail.summary })),
    [runs],
  );

  const pick = (next: string[]) => navigate({ view: "compare", runIds: next });
  const rowText = (entry: NonNullable<typeof row>) =>
    t("phaseOption", { op: entry.op, point: pointText(entry.params, tRuns) });
  const missing = runIds.filter((runId) => errors[runId]);
  // On the first render the store has not started loading yet, so `loading` is still false: a
  // run with neither a detail nor an error is on its way.
  const pending = runIds.some((runId) => !details[runId] && !errors[runId]);

  return (
    <ChartFileSubject value={`compare ${runIds.join(" ")}`}>
      <section className="view" data-testid="compare-view" data-run-ids={runIds.join(",")}>
        <header className="view-header">
          <div>
            <h1>{t("title")}</h1>
            <p className="muted view-subtitle">{t("subtitle")}</p>
          </div>
          {runs.length >= 2 ? (
            <div className="toolbar">
              <CopyTextButton
                testId="compare-copy-table"
                label={t("copy")}
                text={() => compareText(runs, baselineIndex)}
              />
              <ExportMenu
                runIds={runs.map((run) => run.runId)}
                baselineIndex={baselineIndex}
                testIdPrefix="compare-"
              />
            </div>
          ) : null}
        </header>

        <details
          className="card picker-card"
          open={pickerOpen}
          onToggle={(event) => setPickerOpen(event.currentTarget.open)}
        >
          <summary>
            <h2>{t("picker.title", { n: runIds.length })}</h2>
          </summary>
          <RunPicker runIds={runIds} onChange={pick} />
        </details>

        {missing.length > 0 ? (
          <div className="banner error" role="alert" data-testid="compare-errors">
            {missing.map((runId) => (
              <div key={runId}>
                {runId}: {errors[runId]}
              </div>
            ))}
          </div>
        ) : null}

        {runIds.length < 2 ? (
          <div className="card empty-state" data-testid="compare-empty">
            <h2>{t("empty.title")}</h2>
            <p>{t("empty.howTo")}</p>
            <p>{t("empty.fromLibrary")}</p>
            <button type="button" onClick={() => navigate({ view: "runs" })}>
              {t("empty.openLibrary")}
            </button>
          </div>
        ) : !comparison || !row ? (
          <div className="card empty-state" data-testid="compare-waiting">
            {loading || pending ? t("loading") : t("nothingInCommon")}
          </div>
        ) : (
          <>
            <section className="card section">
              <div className="toolbar section-head">
                <h2>{t("table.title")}</h2>
                <span className="toolbar-spacer" />
                <label className="inline-field">
                  <span>{t("baseline")}</span>
                  <select
                    data-testid="compare-baseline"
                    value={runs[baselineIndex]?.runId}
                    onChange={(event) => setBaseline(event.target.value)}
                  >
                    {baselineChoices(runs).map((run) => (
                      <option key={run.runId} value={run.runId}>
                        {run.label} · {formatRunDate(run.detail.meta.createdAt, language)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="inline-field">
                  <span>{t("phase")}</span>
                  <select
                    data-testid="compare-phase"
                    value={key ?? ""}
                    onChange={(event) => setRowKey(event.target.value)}
                  >
                    {comparison.rows.map((entry) => (
                      <option key={rowKey(entry)} value={rowKey(entry)}>
                        {rowText(entry)}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <p className="muted">{t("table.intro")}</p>
              {pairedInOrder ? (
                <p className="banner" data-testid="compare-paired-note">
                  {pairedNote}
                </p>
              ) : null}
              <CompareTable rows={tableRows} op={row.op} pointText={rowKey(row)} />
            </section>
            {comparison.rows.length > 1 ? (
              <AllPointsTable
                comparison={comparison}
                runs={runs}
                chosenKey={key}
                onChoose={setRowKey}
              />
            ) : null}
            {modes.length > 0 ? <ModeComparisonCard entries={modes} /> : null}
            <PercentileLadderChart
              inputs={ladderInputs}
              title={t("ladderTitle", { phase: rowText(row) })}
              testId="compare-ladder-chart"
            />
            {sweepRuns.length > 0 ? <SweepSection runs={sweepRuns} testId="compare-sweep" /> : null}
          </>
        )}
      </section>
    </ChartFileSubject>
  );
}
