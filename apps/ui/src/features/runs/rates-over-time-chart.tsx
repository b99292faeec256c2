import type { IntervalStats, RunMarker } from "@taillab/api";
import { intervalCountsRecorded } from "@taillab/core";
import { formatFixed, formatInteger, type RateKind } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { joinSentences } from "../../shared/list-text.ts";
import { useTimelineMarkers } from "../../shared/marker-list.tsx";
import { useSharedTimeRange } from "./time-range-store.ts";
import { rateTotal, ratesOverTimeChartConfig } from "../../shared/chart-rates-over-time.ts";

/**
 * A stored phase's throughput, data moved or errors per second (its intervals, the seconds the
 * percentiles over time are drawn for): where the server slowed down or failed, second by second,
 * and with which error codes. A run stored before its seconds kept bytes and codes says so.
 */
export function RatesOverTimeChart({
  intervals,
  kind,
  markers = [],
}: {
  intervals: readonly IntervalStats[];
  kind: RateKind;
  /** A live session's knob changes, marked as on its percentiles over time. */
  markers?: readonly RunMarker[];
}) {
  const { t, i18n } = useTranslation("runs");
  const shownMarkers = useTimelineMarkers(markers);
  const timeRange = useSharedTimeRange(intervals);
  const title = t(`ratesOverTime.${kind}.title`);
  const total = rateTotal(intervals, kind);
  const recorded = intervalCountsRecorded(intervals);
  const notes =
    total === null
      ? [t("ratesOverTime.notRecorded")]
      : [
          t(`ratesOverTime.${kind}.note`, {
            seconds: formatInteger(intervals.length),
            total: kind === "data" ? formatFixed(total, 1) : formatInteger(total),
          }),
          ...(kind === "errors"
            ? [t(recorded ? "ratesOverTime.byCode" : "ratesOverTime.notRecorded")]
            : []),
        ];
  return (
    <figure className="card chart-card" data-testid={`${kind}-over-time`}>
      <figcaption>
        <h3>{title}</h3>
        <p className="muted" data-testid={`${kind}-over-time-note`}>
          {joinSentences(notes, i18n.language)}
        </p>
      </figcaption>
      {total === null ? null : (
        <ChartCanvas<"line">
          testId={`${kind}-over-time-chart`}
          label={title}
          resetZoomLabel={t("charts.resetZoom")}
          onResetZoom={timeRange.reset}
          hint={t("timeRange.hint")}
          deps={[...timeRange.deps, intervals, kind, i18n.language, markers]}
          build={(theme) =>
            timeRange.drawn(
              ratesOverTimeChartConfig(theme, intervals, {
                kind,
                labels: {
                  x: t("overTime.x"),
                  y: t(`ratesOverTime.${kind}.y`),
                  line: t(`ratesOverTime.${kind}.line`),
                  markers: t("overTime.markers"),
                },
                markers: shownMarkers,
              }),
              theme,
            )
          }
          attributes={{
            "data-seconds": intervals.length,
            "data-total": total,
            "data-markers": shownMarkers.length,
          }}
        />
      )}
    </figure>
  );
}
