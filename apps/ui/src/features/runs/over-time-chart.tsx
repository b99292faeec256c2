import type { ClientSecond, IntervalStats, RunMarker } from "@taillab/api";
import {
  formatInteger,
  OVER_TIME_PERCENTILES,
  overTimeLogScale,
  type OverTimePercentile,
} from "@taillab/report";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { useSharedTimeRange } from "./time-range-store.ts";
import { ClientBoundNote, useClientBound } from "../../shared/client-bound-note.tsx";
import {
  overTimeChartConfig,
  overTimeIntervalLabels,
  overTimeIntervalNotes,
} from "../../shared/chart-over-time.ts";
import { MarkerList, useTimelineMarkers } from "../../shared/marker-list.tsx";
import { PercentileChooser } from "../../shared/percentile-chooser.tsx";

/**
 * A stored phase's p50, p99 and p99.9 per second (its interval histograms, as the live screen
 * drew them), with what backups cost per second when it sent any, a live session's knob
 * changes marked where they happened, and the seconds whose client was the bottleneck.
 */
export function OverTimeChart({
  intervals,
  markers,
  cost,
  clientSeconds,
}: {
  intervals: readonly IntervalStats[];
  markers: readonly RunMarker[];
  cost: boolean;
  /** The phase's client health per second; empty in a run recorded before it was measured. */
  clientSeconds: readonly ClientSecond[];
}) {
  const { t, i18n } = useTranslation("runs");
  const timeRange = useSharedTimeRange(intervals);
  const [percentiles, setPercentiles] = useState<OverTimePercentile[]>([...OVER_TIME_PERCENTILES]);
  const shownMarkers = useTimelineMarkers(markers);
  const clientBound = useClientBound(clientSeconds);
  const labels = {
    x: t("overTime.x"),
    y: t("charts.latencyMs"),
    cost: t("overTime.cost"),
    markers: t("overTime.markers"),
    clientBound: clientBound.legend,
    ...overTimeIntervalLabels(i18n.language),
  };
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{t("overTime.title")}</h3>
        <p className="muted">
          {t(cost ? "overTime.noteCost" : "overTime.note", {
            seconds: formatInteger(intervals.length),
          })}
        </p>
        {overTimeIntervalNotes(i18n.language, intervals).map((note) => (
          <p key={note} className="muted small" data-testid="over-time-interval-note">
            {note}
          </p>
        ))}
      </figcaption>
      <ChartCanvas<"line">
        testId="over-time-chart"
        label={t("overTime.title")}
        resetZoomLabel={t("charts.resetZoom")}
        onResetZoom={timeRange.reset}
        hint={t("timeRange.hint")}
        deps={[
          ...timeRange.deps,
          intervals,
          markers,
          percentiles.join(),
          cost,
          i18n.language,
          clientBound.spans,
        ]}
        logScale={overTimeLogScale(intervals)}
        tools={
          <PercentileChooser
            offered={OVER_TIME_PERCENTILES}
            chosen={percentiles}
            onChange={(chosen) => setPercentiles(chosen as OverTimePercentile[])}
            testId="over-time-percentile"
          />
        }
        build={(theme, view) =>
          timeRange.drawn(
            overTimeChartConfig(theme, intervals, {
              logScale: view.log,
              labels,
              percentiles,
              cost,
              markers: shownMarkers,
              clientBound: clientBound.spans,
            }),
            theme,
          )
        }
        attributes={{
          "data-seconds": intervals.length,
          "data-interval-seconds": intervals.filter((interval) => interval.percentileIntervals)
            .length,
          "data-markers": shownMarkers.length,
          "data-client-bound": clientBound.spans.length,
        }}
      />
      <MarkerList markers={shownMarkers} testId="run-markers" />
      <ClientBoundNote spans={clientBound.spans} testId="run-client-bound" />
    </figure>
  );
}
