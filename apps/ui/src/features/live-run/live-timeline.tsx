import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { ClientBoundNote, useClientBound } from "../../shared/client-bound-note.tsx";
import {
  OVER_TIME_PERCENTILES,
  overTimeChartConfig,
  overTimeIntervalLabels,
  type OverTimePercentile,
} from "../../shared/chart-over-time.ts";
import { MarkerList, useTimelineMarkers } from "../../shared/marker-list.tsx";
import { PercentileChooser } from "../../shared/percentile-chooser.tsx";
import { missingLatencies, shownPhase } from "./live-run-state.ts";
import { useLiveRun } from "./live-run-store.ts";

/**
 * p50, p99 and p99.9 per second, growing as events arrive (the engine's interval histograms),
 * and in a run with backups their cost per second; a live session's knob changes are marked.
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
  const markers = useLiveRun((state) => state.markers);
  const cost = useLiveRun(
    (state) => state.tuning !== null || (state.series !== null && state.series.mode !== "normal"),
  );
  const clientBound = useClientBound(useLiveRun((state) => state.client));
  const [percentiles, setPercentiles] = useState<OverTimePercentile[]>([...OVER_TIME_PERCENTILES]);
  const labels = {
    x: t("timeline.x"),
    y: t("timeline.y"),
    cost: t("timeline.cost"),
    markers: t("timeline.markers"),
    clientBound: clientBound.legend,
    ...overTimeIntervalLabels(i18n.language),
  };
  const intervals = overTime?.intervals ?? [];
  const shownMarkers = useTimelineMarkers(markers);

  return (
    <section className="card" aria-labelledby="live-timeline-title">
      <header className="card-header">
        <div>
          <h2 id="live-timeline-title">
            {t("timeline.title")}
            {overTime ? <span className="badge op-badge">{overTime.op}</span> : null}
          </h2>
          <p className="muted small">{t(cost ? "timeline.hintCost" : "timeline.hint")}</p>
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
      <div
        className="timeline-box"
        data-intervals={intervals.length}
        data-markers={markers.length}
        data-client-bound={clientBound.spans.length}
        data-last-backups={intervals.at(-1)?.backups}
        data-last-p99-ms={intervals.at(-1)?.p99Ms ?? undefined}
        data-last-start-ms={intervals.at(-1)?.startMs}
      >
        <ChartCanvas<"line">
          testId="live-timeline"
          label={t("timeline.title")}
          deps={[
            overTime,
            logScale,
            i18n.language,
            markers,
            percentiles.join(),
            cost,
            clientBound.spans,
          ]}
          tools={
            <PercentileChooser
              offered={OVER_TIME_PERCENTILES}
              chosen={percentiles}
              onChange={(chosen) => setPercentiles(chosen as OverTimePercentile[])}
              testId="live-timeline-percentile"
            />
          }
          build={(theme) =>
            overTimeChartConfig(theme, intervals, {
              logScale,
              labels,
              percentiles,
              cost,
              markers: shownMarkers,
              clientBound: clientBound.spans,
            })
          }
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
      <MarkerList markers={shownMarkers} testId="live-markers" />
      <ClientBoundNote spans={clientBound.spans} testId="live-client-bound" />
    </section>
  );
}
