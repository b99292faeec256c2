import { ChartFileSubject } from "../../shared/chart-file-name.ts";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "../../app/navigation-store.ts";
import { ShardBreakdownCard } from "../kubernetes/shard-breakdown-card.tsx";
import { CopyTextButton } from "./copy-text-button.tsx";
import { ExportMenu } from "./export-menu.tsx";
import { ClientHealthCard } from "./client-health-card.tsx";
import { HedgeCostCard } from "./hedge-cost-card.tsx";
import { PhaseCharts } from "./phase-charts.tsx";
import { PhasePicker } from "./phase-picker.tsx";
import { RepetitionsTable } from "./repetitions-table.tsx";
import { ReplicaTable } from "./replica-table.tsx";
import { ResultsTable } from "./results-table.tsx";
import { RunBanners } from "./run-banners.tsx";
import { useRunDetail } from "./run-detail-store.ts";
import { RunHeader } from "./run-header.tsx";
import { RunOriginActions } from "./run-origin-actions.tsx";
import { runText } from "./run-text.ts";
import { SweepSection } from "./sweep-section.tsx";
import { TimingTable } from "./timing-table.tsx";

/** One stored run: what was run, its s3bench figures, and the charts that show its tail. */
export function RunDetailView({ runId }: { runId: string }) {
  const { t } = useTranslation("runs");
  const navigate = useNavigation((state) => state.navigate);
  const shownId = useRunDetail((state) => state.runId);
  const detail = useRunDetail((state) => state.detail);
  const loading = useRunDetail((state) => state.loading);
  const error = useRunDetail((state) => state.error);
  const choice = useRunDetail((state) => state.choice);
  const { load, choose, choosePoint } = useRunDetail.getState();

  useEffect(() => {
    void useRunDetail.getState().load(runId);
  }, [runId]);

  const sweepRuns = useMemo(
    () => (detail ? [{ label: detail.meta.name || detail.meta.id, summary: detail.summary }] : []),
    [detail],
  );
  const back = (
    <button type="button" className="ghost back" onClick={() => navigate({ view: "runs" })}>
      ← {t("detail.back")}
    </button>
  );

  if (!detail || shownId !== runId || detail.meta.id !== runId) {
    return (
      <section className="view" data-testid="run-detail" data-run-id={runId} data-loading={loading}>
        {back}
        {error ? (
          <div className="banner error" role="alert" data-testid="run-detail-error">
            {error}{" "}
            <button type="button" className="ghost small" onClick={() => void load(runId)}>
              {t("detail.retry")}
            </button>
          </div>
        ) : (
          <div className="card empty-state">{t("detail.loading")}</div>
        )}
      </section>
    );
  }

  const { meta, summary } = detail;
  const chosenPhase = choice
    ? summary.points[choice.pointIndex]?.phases.find((phase) => phase.op === choice.op)
    : undefined;
  return (
    <ChartFileSubject value={`${meta.name} ${meta.id}`}>
      <section
        className="view"
        data-testid="run-detail"
        data-run-id={meta.id}
        data-status={meta.status}
        data-mode={summary.mode}
        data-loop={summary.loop}
        data-points={summary.points.length}
      >
        {back}
        <RunHeader
          detail={detail}
          actions={
            <div className="toolbar">
              <RunOriginActions meta={meta} />
              <CopyTextButton
                testId="copy-table"
                label={t("copy.table")}
                text={() => runText(summary, choice?.pointIndex ?? 0)}
              />
              <ExportMenu runIds={[meta.id]} perRequestCsv />
            </div>
          }
        />
        <RunBanners detail={detail} />
        <section className="card section" data-testid="results">
          <h2>{t("results.title")}</h2>
          <p className="muted">{t("results.intro")}</p>
          <ResultsTable summary={summary} choice={choice} onChoose={choose} />
        </section>
        <TimingTable summary={summary} />
        <ShardBreakdownCard summary={summary} />
        <RepetitionsTable summary={summary} />
        {choice ? (
          <>
            <PhasePicker
              summary={summary}
              choice={choice}
              onChoose={choose}
              onChoosePoint={choosePoint}
            />
            {summary.mode !== "normal" && chosenPhase ? (
              <HedgeCostCard phase={chosenPhase} mode={summary.mode} />
            ) : null}
            {chosenPhase ? <ClientHealthCard phase={chosenPhase} meta={meta} /> : null}
            <PhaseCharts detail={detail} choice={choice} />
          </>
        ) : (
          <div className="card empty-state">{t("detail.noPhases")}</div>
        )}
        {summary.points.length > 1 ? <SweepSection runs={sweepRuns} testId="sweep-charts" /> : null}
        <ReplicaTable summary={summary} />
      </section>
    </ChartFileSubject>
  );
}
