import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { overTimeChartConfig } from "../../shared/chart-over-time.ts";
import { missingLatencies, shownPhase } from "./live-run-state.ts";
import { useLiveRun } from "./live-run-store.ts";

/**
 * p50, p99 and p99.9 per second, growing as events arrive (the engine's interval histograms).
 * Only this component follows them, and the chart redraws in place without animation
 * (ChartCanvas' update("none")).
 */
export function LiveTimeline() {
  const { t, i18n } = useTranslation("live");
  // After a run that ended with its cleanup, the last measured phase's seconds stay.
  const overTime = useLiveRun((state) => shownPhase(state)?.overTime ?? null);
  const logScale = useLiveRun((state) => state.logScale);
  const setLogScale = useLiveRun((state) => state.setLogScale);
  const missing = useLiveRun(missingLatencies);
  const labels = { x: t("timeline.x"), y: t("timeline.y") };
  const intervals = overTime?.intervals ?? [];

  return (
    <section className="card" aria-labelledby="live-timeline-title">
      <header className="card-header">
        <div>
          <h2 id="live-timeline-title">
            {t("timeline.title")}
            {overTime ? <span className="badge op-badge">{overTime.op}</span> : null}
          </h2>
          <p className="muted small">{t("timeline.hint")}</p>
        </div>
        <label className="check">
          <input
            type="checkbox"
            data-testid="live-log-scale"
            checked={logScale}
            onChange={(event) => setLogScale(event.target.checked)}
          />
          {t("timeline.log")}
        </label>
      </header>
      <div className="timeline-box" data-intervals={intervals.length}>
        <ChartCanvas<"line">
          testId="live-timeline"
          label={t("timeline.title")}
          deps={[overTime, logScale, i18n.language]}
          build={(theme) => overTimeChartConfig(theme, intervals, { logScale, labels })}
          attributes={{ "data-log-scale": logScale }}
        />
        {intervals.length === 0 ? (
          <p
            className="chart-overlay muted"
            data-testid="live-timeline-empty"
            data-reason={missing}
          >
            {missing === "failed" || missing === "none"
              ? t(`noLatencies.${missing}`)
              : t("timeline.waiting")}
          </p>
        ) : null}
      </div>
    </section>
  );
}
