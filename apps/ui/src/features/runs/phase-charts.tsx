import type { RunDetail } from "@taillab/api";
import { chartedOps } from "@taillab/core";
import { analyseHistogram } from "@taillab/report";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { CdfChart } from "./cdf-chart.tsx";
import { HistogramChart } from "./histogram-chart.tsx";
import { KnobHistoryCard } from "./knob-history-card.tsx";
import { LatencyTimelineChart } from "./latency-timeline-chart.tsx";
import { OverTimeChart } from "./over-time-chart.tsx";
import { PercentileLadderChart } from "./percentile-ladder-chart.tsx";
import { RatesOverTimeChart } from "./rates-over-time-chart.tsx";
import type { LadderInput } from "./percentile-ladder-data.ts";
import { findHistograms } from "./phase-analysis.ts";
import { pointOptionText } from "./points-text.ts";
import type { PhaseChoice } from "./run-detail-store.ts";
import { TailBreakdownCard } from "./tail-breakdown-card.tsx";
import { useTimeRange } from "./time-range-store.ts";

/** The tail-latency charts of one point and phase: timeline, distribution, CDF and ladder. */
export function PhaseCharts({ detail, choice }: { detail: RunDetail; choice: PhaseChoice }) {
  const { t } = useTranslation("runs");
  const { summary, histograms, latencySeries } = detail;
  const overTime = detail.intervals.find(
    (entry) => entry.pointIndex === choice.pointIndex && entry.op === choice.op,
  );
  const point = summary.points[choice.pointIndex];
  const phase = point?.phases.find((entry) => entry.op === choice.op);
  const series = latencySeries.find(
    (entry) => entry.pointIndex === choice.pointIndex && entry.op === choice.op,
  );
  const timeRange = useTimeRange((state) => state.range);
  // A zoom is into one phase's seconds: another run, point or phase starts whole.
  useEffect(() => useTimeRange.getState().reset(), [detail.meta.id, choice.pointIndex, choice.op]);
  const stored = findHistograms(histograms, choice.pointIndex, choice.op);
  // Decoding and fitting a histogram is the costly part: once per phase shown, for both charts.
  const analysis = useMemo(() => (stored ? analyseHistogram(stored.latency) : null), [stored]);
  const ladderInputs = useMemo((): LadderInput[] => {
    if (!point) return [];
    const ops = chartedOps([{ ...summary, points: [point] }]);
    return point.phases
      .filter((entry) => ops.includes(entry.op))
      .map((entry) => ({
        label: t(`ops.${entry.op}`),
        histogram: findHistograms(histograms, choice.pointIndex, entry.op)?.latency ?? null,
        stats: entry.latencyMs,
      }));
  }, [summary, point, histograms, choice.pointIndex, t]);
  if (!point || !phase) return null;

  return (
    <section
      className="section phase-charts"
      data-testid="phase-charts"
      data-op={choice.op}
      data-time-range={timeRange ? `${timeRange.fromS}-${timeRange.toS}` : "all"}
    >
      <h2>
        {t("charts.sectionTitle", { op: t(`ops.${choice.op}`) })}
        {summary.points.length > 1 ? (
          <span className="muted"> · {pointOptionText(choice.pointIndex, point.params, t)}</span>
        ) : null}
      </h2>
      {phase.latencyMs === null ? (
        <p className="banner warning" data-testid="phase-no-latency">
          {t("charts.noSuccess", { op: t(`ops.${choice.op}`) })}
        </p>
      ) : null}
      {overTime && overTime.intervals.length > 0 ? (
        <OverTimeChart
          intervals={overTime.intervals}
          markers={summary.markers ?? []}
          cost={phase.hedge !== undefined}
          clientSeconds={phase.client?.seconds ?? []}
        />
      ) : null}
      {overTime && overTime.intervals.length > 0 ? (
        <div className="grid-2">
          {(["throughput", "data", "errors"] as const).map((kind) => (
            <RatesOverTimeChart
              key={kind}
              intervals={overTime.intervals}
              kind={kind}
              markers={summary.markers ?? []}
            />
          ))}
        </div>
      ) : null}
      {summary.markers && summary.markers.length > 0 && overTime ? (
        <KnobHistoryCard markers={summary.markers} intervals={overTime.intervals} />
      ) : null}
      <TailBreakdownCard phase={phase} />
      {series && series.buckets.length > 0 && phase.latencyMs ? (
        <LatencyTimelineChart buckets={series.buckets} stats={phase.latencyMs} />
      ) : (
        <p className="card muted" data-testid="timeline-missing">
          {t("charts.noSeries")}
        </p>
      )}
      {analysis && phase.latencyMs ? (
        <div className="grid-2">
          <HistogramChart analysis={analysis} />
          <CdfChart analysis={analysis} stats={phase.latencyMs} />
        </div>
      ) : (
        <p className="card muted" data-testid="histogram-missing">
          {stored ? t("charts.noLatencies") : t("charts.noHistogram")}
        </p>
      )}
      {ladderInputs.length > 0 ? (
        <PercentileLadderChart
          inputs={ladderInputs}
          title={t("charts.ladderTitle")}
          testId="ladder-chart"
        />
      ) : null}
    </section>
  );
}
