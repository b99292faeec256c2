import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { useNavigation } from "../../app/navigation-store.ts";
import { failureText, useSay } from "../../shared/said.ts";
import { useLiveRun } from "./live-run-store.ts";
import { canCompareModes, nextModeComing, shownStatus, stoppedInPoint } from "./live-status.ts";

const TONE = {
  complete: "success",
  stopped: "warning",
  serverLost: "warning",
  failed: "error",
} as const;

/** How the run ended, and where to go from here: its result, or the modes side by side. */
export function FinishedBanner() {
  const { t } = useTranslation("live");
  const say = useSay();
  const navigate = useNavigation((state) => state.navigate);
  const { runId, finished, status, compare, next } = useLiveRun(
    useShallow((state) => ({
      runId: state.runId,
      finished: state.finished,
      status: shownStatus(state),
      compare: canCompareModes(state),
      next: nextModeComing(state),
    })),
  );
  const stoppedIn = useLiveRun(useShallow(stoppedInPoint));
  if (!finished || runId === null || !(status in TONE)) return null;
  const tone = TONE[status as keyof typeof TONE];
  const message = next
    ? t("finished.next", { mode: t(`mode.${finished.series.mode}`) })
    : status === "failed"
      ? finished.error
        ? t("finished.failed", { message: failureText(finished.error, say) })
        : t("finished.failedUnknown")
      : stoppedIn
        ? t(
            stoppedIn.measured ? "finished.stoppedInPoint" : "finished.stoppedBeforeFirst",
            stoppedIn,
          )
        : t(`finished.${status}`);

  return (
    <div
      className={`banner ${tone} finished-banner`}
      data-testid="live-finished"
      data-points-finished={stoppedIn?.finished}
      data-point-count={stoppedIn?.count}
      role="status"
    >
      <strong className="finished-message">{message}</strong>
      <span className="toolbar">
        <button
          type="button"
          className={compare ? undefined : "primary"}
          data-testid="open-result"
          onClick={() => navigate({ view: "run", runId })}
        >
          {t("finished.openResult")}
        </button>
        {compare ? (
          <button
            type="button"
            className="primary"
            data-testid="compare-modes"
            onClick={() => navigate({ view: "compare", runIds: finished.seriesRunIds })}
          >
            {t("finished.compareModes")}
          </button>
        ) : null}
        <button type="button" className="ghost" onClick={() => navigate({ view: "experiments" })}>
          {t("finished.experiments")}
        </button>
      </span>
    </div>
  );
}
