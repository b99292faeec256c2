import type { IntervalStats } from "@taillab/api";
import { formatInteger } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { useSharedTimeRange } from "./time-range-store.ts";
import { ratesOverTimeChartConfig, type RateKind } from "../../shared/chart-rates-over-time.ts";

/**
 * A stored phase's throughput or errors per second (its intervals, the seconds the percentiles
 * over time are drawn for): where the server slowed down or failed, second by second.
 */
export function RatesOverTimeChart({
  intervals,
  kind,
}: {
  intervals: readonly IntervalStats[];
  kind: RateKind;
}) {
  const { t, i18n } = useTranslation("runs");
  const timeRange = useSharedTimeRange(intervals);
  const title = t(`ratesOverTime.${kind}.title`);
  const total = intervals.reduce(
    (sum, interval) => sum + (kind === "throughput" ? interval.requests : interval.errors),
    0,
  );
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{title}</h3>
        <p className="muted">
          {t(`ratesOverTime.${kind}.note`, {
            seconds: formatInteger(intervals.length),
            total: formatInteger(total),
          })}
        </p>
      </figcaption>
      <ChartCanvas<"line">
        testId={`${kind}-over-time-chart`}
        label={title}
        resetZoomLabel={t("charts.resetZoom")}
        onResetZoom={timeRange.reset}
        hint={t("timeRange.hint")}
        deps={[...timeRange.deps, intervals, kind, i18n.language]}
        build={(theme) =>
          timeRange.drawn(
            ratesOverTimeChartConfig(theme, intervals, {
              kind,
              labels: {
                x: t("overTime.x"),
                y: t(`ratesOverTime.${kind}.y`),
                line: t(`ratesOverTime.${kind}.line`),
              },
            }),
            theme,
          )
        }
        attributes={{ "data-seconds": intervals.length, "data-total": total }}
      />
    </figure>
  );
}
