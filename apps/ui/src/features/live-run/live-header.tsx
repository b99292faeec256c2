import { useTranslation } from "react-i18next";
import { useRunNameText } from "../experiments/experiment-text.ts";
import { modKeyLabel } from "../../app/shortcuts.ts";
import { StopIcon } from "../../shared/icons.tsx";
import { isRunActive, useLiveRun } from "./live-run-store.ts";
import { experimentTitle, shownStatus, type ShownStatus } from "./live-status.ts";

const BADGE_TONE: Record<ShownStatus, string> = {
  idle: "",
  running: "accent",
  starting: "accent",
  complete: "success",
  stopped: "warning",
  serverLost: "warning",
  failed: "danger",
};

/** The run's name, its place in a mode series, its status, and the stop button. */
export function LiveHeader() {
  const { t } = useTranslation("live");
  const name = useLiveRun(experimentTitle);
  const nameText = useRunNameText();
  const series = useLiveRun((state) => state.series);
  const status = useLiveRun(shownStatus);
  const active = useLiveRun(isRunActive);
  const stopping = useLiveRun((state) => state.stopping);
  const stop = useLiveRun((state) => state.stop);
  const live = useLiveRun((state) => state.tuning !== null);

  return (
    <header className="view-header live-header">
      <div>
        <h1>{name ? nameText(name) : t("title")}</h1>
        <div className="live-meta">
          <span
            className={`badge status-badge ${BADGE_TONE[status]}`}
            data-testid="live-status"
            data-status={status}
            role="status"
          >
            {status === "running" || status === "starting" ? (
              <span className="live-dot" aria-hidden="true" />
            ) : null}
            {t(`status.${status}`)}
          </span>
          {series && series.count > 1 ? (
            <span className="series-label" data-testid="live-series">
              {t("series", {
                mode: t(`mode.${series.mode}`),
                index: series.index + 1,
                count: series.count,
              })}
            </span>
          ) : null}
        </div>
      </div>
      {active ? (
        <button
          type="button"
          className="danger stop-button"
          data-testid="live-stop"
          disabled={stopping}
          title={`Esc / ${modKeyLabel()}+.`}
          onClick={() => void stop()}
        >
          <StopIcon />
          {stopping ? t("stopping") : live ? t("stopAndSave") : t("stop")}
          <kbd className="kbd-hint">Esc</kbd>
        </button>
      ) : null}
    </header>
  );
}
