import { formatByteSize } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { formatInteger, formatSignificant } from "@taillab/report";
import { formatDuration } from "../../shared/display-format.ts";
import { overallProgress } from "./live-run-state.ts";
import { useLiveRun } from "./live-run-store.ts";

/** Where the run is: the whole run's bar and ETA, then the point and phase running now. */
export function LiveProgress() {
  const { t } = useTranslation("live");
  const overall = useLiveRun(useShallow(overallProgress));
  const progress = useLiveRun((state) => state.progress);
  const pointCount = useLiveRun((state) => state.points.length);
  const running = useLiveRun((state) => state.status === "running");
  const percent = Math.round(overall.fraction * 1000) / 10;

  return (
    <section
      className="card live-progress"
      data-testid="live-progress"
      data-done={overall.done}
      data-total={overall.total}
    >
      <div className="progress-line">
        <strong>
          {t("progress", {
            done: formatInteger(overall.done),
            total: formatInteger(overall.total),
          })}
        </strong>
        <span className="muted">
          {t("elapsed", { duration: formatDuration(overall.elapsedMs) })}
          {running ? (
            <>
              {" · "}
              {overall.etaMs === null
                ? t("etaUnknown")
                : t("eta", { duration: formatDuration(overall.etaMs) })}
            </>
          ) : null}
        </span>
      </div>
      <div
        className="progress large"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div style={{ width: `${percent}%` }} />
      </div>
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
            {t(progress.params.clients === 1 ? "paramsOneClient" : "params", {
              clients: progress.params.clients,
              samples: formatInteger(progress.params.samples),
              size: formatByteSize(progress.params.objectSizeBytes),
            })}
          </span>
          <span className="muted">
            {t("phaseProgress", {
              done: formatInteger(progress.done),
              total: formatInteger(progress.total),
            })}
          </span>
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
