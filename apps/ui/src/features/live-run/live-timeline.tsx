import { OVER_TIME_PERCENTILES, type OverTimePercentile } from "@taillab/report";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { ClientBoundNote, useClientBound } from "../../shared/client-bound-note.tsx";
import { overTimeChartConfig, overTimeIntervalLabels } from "../../shared/chart-over-time.ts";
import { rateTotal, ratesOverTimeChartConfig } from "../../shared/chart-rates-over-time.ts";
import { joinSentences } from "../../shared/list-text.ts";
import { MarkerList, useTimelineMarkers } from "../../shared/marker-list.tsx";
import { PercentileChooser } from "../../shared/percentile-chooser.tsx";
import { missingLatencies, secondsAsTheyBegin } from "./live-run-state.ts";
import { useLiveRun, type LiveChart } from "./live-run-store.ts";

const LIVE_CHARTS: readonly LiveChart[] = ["latency", "throughput", "data", "errors"];

/**
 * p50, p99 and p99.9 per second, growing as events arrive (the engine's interval histograms),
 * and in a run with backups their cost per second; a live session's knob changes are marked.
 * A switch in its header draws the same seconds' throughput, MiB/s or errors by code instead, as
 * a stored run's charts do (ratesOverTimeChartConfig): one chart's height, so the live lab still
 * fits one projected screen. Only this component follows the seconds, and only as each second
 * begins (secondsAsTheyBegin), not at every event; the chart redraws in place without animation,
 * at most once a frame (ChartCanvas). A knob's marker is drawn as soon as it comes. Their list
 * goes under the chart, or elsewhere with `markersBeside` (the lab's LiveMarkers).
 */
export function LiveTimeline({ markersBeside = false }: { markersBeside?: boolean }) {
  const { t, i18n } = useTranslation("live");
  // After a run that ended with its cleanup, the last measured phase's seconds stay.
  // This chart's own selector (it keeps what it last answered), made once.
  const [selectSeconds] = useState(secondsAsTheyBegin);
  const { overTime, client } = useLiveRun(selectSeconds);
  const logScale = useLiveRun((state) => state.logScale);
  const setLogScale = useLiveRun((state) => state.setLogScale);
  const chart = useLiveRun((state) => state.chart);
  const setChart = useLiveRun((state) => state.setChart);
  const missing = useLiveRun(missingLatencies);
  const markers = useLiveRun((state) => state.markers);
  const cost = useLiveRun(
    (state) => state.tuning !== null || (state.series !== null && state.series.mode !== "normal"),
  );
  const clientBound = useClientBound(client);
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

  const latency = chart === "latency";
  const title = latency ? t("timeline.title") : t(`timeline.rates.${chart}.title`);
  const hint = latency
    ? t(cost ? "timeline.hintCost" : "timeline.hint")
    : joinSentences(
        [t(`timeline.rates.${chart}.note`), chart === "errors" ? t("timeline.rates.byCode") : ""],
        i18n.language,
      );

  return (
    <section className="card" aria-labelledby="live-timeline-title">
      <header className="card-header">
        <div>
          {/* The switch's pressed choice shows which chart this is; the title is for readers. */}
          <h2 id="live-timeline-title" className="visually-hidden">
            {title}
          </h2>
          <div className="live-chart-title">
            <span className="segmented" role="group" aria-label={t("timeline.views")}>
              {LIVE_CHARTS.map((option) => (
                <button
                  key={option}
                  type="button"
                  className="chip"
                  aria-pressed={chart === option}
                  data-testid={`live-chart-${option}`}
                  onClick={() => setChart(option)}
                >
                  {t(`timeline.view.${option}`)}
                </button>
              ))}
            </span>
            {overTime ? <span className="badge op-badge">{overTime.op}</span> : null}
          </div>
          <p className="muted small">{hint}</p>
        </div>
        {latency ? (
          <label className="check">
            <input
              type="checkbox"
              data-testid="live-log-scale"
              checked={logScale}
              onChange={(event) => setLogScale(event.target.checked)}
            />
            {t("timeline.log")}
          </label>
        ) : null}
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
        {latency ? (
          <ChartCanvas<"line">
            key="latency"
            testId="live-timeline"
            label={title}
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
            attributes={{ "data-chart": chart, "data-log-scale": logScale }}
          />
        ) : (
          // A chart of its own (key): its plugins are set when Chart.js builds it.
          <ChartCanvas<"line">
            key={chart}
            testId="live-timeline"
            label={title}
            deps={[overTime, i18n.language, chart, markers]}
            build={(theme) =>
              ratesOverTimeChartConfig(theme, intervals, {
                kind: chart,
                labels: {
                  x: labels.x,
                  y: t(`timeline.rates.${chart}.axis`),
                  line: t(`timeline.rates.${chart}.line`),
                  markers: labels.markers,
                },
                markers: shownMarkers,
              })
            }
            attributes={{
              "data-chart": chart,
              "data-markers": shownMarkers.length,
              "data-seconds": intervals.length,
              "data-total": rateTotal(intervals, chart) ?? undefined,
            }}
          />
        )}
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
      {markersBeside ? null : <MarkerList markers={shownMarkers} testId="live-markers" />}
      {/* It points at the bar the latency chart draws; the banner above says it for all. */}
      {latency ? <ClientBoundNote spans={clientBound.spans} testId="live-client-bound" /> : null}
    </section>
  );
}
