import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { timelineChartConfig } from "../../shared/chart-timeline.ts";
import { missingLatencies, shownPhase } from "./live-run-state.ts";
import { useLiveRun } from "./live-run-store.ts";

/**
 * Latency against request index, growing as events arrive. Only this component follows the
 * timeline, and the chart redraws in place without animation (ChartCanvas' update("none")).
 */
export function LiveTimeline() {
  const { t, i18n } = useTranslation("live");
  // After a run that ended with its cleanup, the last measured phase's timeline stays.
  const timeline = useLiveRun((state) => shownPhase(state)?.timeline ?? null);
  const logScale = useLiveRun((state) => state.logScale);
  const setLogScale = useLiveRun((state) => state.setLogScale);
  const missing = useLiveRun(missingLatencies);
  const labels = {
    band: t("timeline.band"),
    slowest: t("timeline.slowest"),
    fastest: t("timeline.fastest"),
    mean: t("timeline.mean"),
    x: t("timeline.x"),
    y: t("timeline.y"),
  };
  const buckets = timeline?.buckets ?? [];

  return (
    <section className="card" aria-labelledby="live-timeline-title">
      <header className="card-header">
        <div>
          <h2 id="live-timeline-title">
            {t("timeline.title")}
            {timeline ? <span className="badge op-badge">{timeline.op}</span> : null}
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
      <div className="timeline-box" data-buckets={buckets.length}>
        <ChartCanvas<"line">
          testId="live-timeline"
          label={t("timeline.title")}
          deps={[timeline, logScale, i18n.language]}
          // No p99 line and no zoom: the phase is still growing, and every redraw sets the
          // x axis back to the requests so far.
          build={(theme) => timelineChartConfig(theme, buckets, { logScale, labels })}
          attributes={{ "data-log-scale": logScale }}
        />
        {buckets.length === 0 ? (
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
