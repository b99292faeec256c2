import { formatByteSize } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { formatInteger, formatSignificant } from "@taillab/report";
import { formatDuration } from "../../shared/display-format.ts";
import { overallProgress, seriesProgress, type OverallProgress } from "./live-run-state.ts";
import { useLiveRun } from "./live-run-store.ts";

/**
 * Where the run is: the whole mode series' bar and ETA when the run is one of several, the
 * run's own, then the point and phase running now.
 */
export function LiveProgress() {
  const { t } = useTranslation("live");
  const run = useLiveRun(useShallow(overallProgress));
  const series = useLiveRun(useShallow(seriesProgress));
  const place = useLiveRun((state) => state.series);
  const progress = useLiveRun((state) => state.progress);
  const pointCount = useLiveRun((state) => state.points.length);
  const running = useLiveRun((state) => state.status === "running");
  const inSeries = place !== null && place.count > 1;

  return (
    <section
      className="card live-progress"
      data-testid="live-progress"
      data-done={run.done}
      data-total={run.total}
      data-series-done={series.done}
      data-series-total={series.total}
    >
      {inSeries ? (
        <ProgressBar
          testId="live-series-progress"
          figures={series}
          running={running}
          label={t("seriesProgress", {
            index: place.index + 1,
            count: place.count,
            done: formatInteger(series.done),
            total: formatInteger(series.total),
          })}
        />
      ) : null}
      <ProgressBar
        testId="live-run-progress"
        figures={run}
        running={running}
        small={inSeries}
        label={
          inSeries
            ? t("runProgress", {
                mode: t(`mode.${place.mode}`),
                done: formatInteger(run.done),
                total: formatInteger(run.total),
              })
            : run.total === 0
              ? t("progressUntilStopped", { done: formatInteger(run.done) })
              : t("progress", { done: formatInteger(run.done), total: formatInteger(run.total) })
        }
      />
      {progress ? (
        <div className="phase-line">
          <span className="badge op-badge" data-testid="live-op">
            {progress.op}
          </span>
          <span>
            {t("point", {
              index: progress.pointIndex + 1,
              count: Math.max(progress.pointCount, pointCount),
            })}
          </span>
          <span className="muted">
            {progress.total === 0
              ? t(progress.params.clients === 1 ? "paramsOneClientOpen" : "paramsOpen", {
                  clients: progress.params.clients,
                  size: formatByteSize(progress.params.objectSizeBytes),
                })
              : t(progress.params.clients === 1 ? "paramsOneClient" : "params", {
                  clients: progress.params.clients,
                  samples: formatInteger(progress.params.samples),
                  size: formatByteSize(progress.params.objectSizeBytes),
                })}
          </span>
          {progress.total > 0 ? (
            <span className="muted" data-testid="live-phase-progress">
              {t("phaseProgress", {
                done: formatInteger(progress.done),
                total: formatInteger(progress.total),
              })}
            </span>
          ) : null}
          <span className="phase-figures">
            <span data-testid="live-ops">
              <strong>{formatSignificant(progress.opsPerSec)}</strong> {t("opsPerSec")}
            </span>
            <span
              data-testid="live-errors"
              className={progress.errors > 0 ? "has-errors" : undefined}
            >
              <strong>{formatInteger(progress.errors)}</strong> {t("errors")}
            </span>
          </span>
        </div>
      ) : null}
    </section>
  );
}

/** A labelled bar with elapsed time and, while running, the time left. */
function ProgressBar({
  testId,
  figures,
  label,
  running,
  small = false,
}: {
  testId: string;
  figures: OverallProgress;
  label: string;
  running: boolean;
  small?: boolean;
}) {
  const { t } = useTranslation("live");
  const percent = Math.round(figures.fraction * 1000) / 10;
  return (
    <div className="progress-block" data-testid={testId} data-elapsed-ms={figures.elapsedMs}>
      <div className="progress-line">
        {small ? <span>{label}</span> : <strong>{label}</strong>}
        <span className="muted">
          {t("elapsed", { duration: formatDuration(figures.elapsedMs) })}
          {running ? (
            <>
              {" · "}
              {figures.total === 0
                ? t("untilStopped")
                : figures.etaMs === null
                  ? t("etaUnknown")
                  : t("eta", { duration: formatDuration(figures.etaMs) })}
            </>
          ) : null}
        </span>
      </div>
      <div
        className={`${small ? "progress" : "progress large"}${figures.total === 0 ? " endless" : ""}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={figures.total === 0 ? undefined : percent}
      >
        <div style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
