import type { LatencyStats } from "@taillab/api";
import type { DecimatedBucket } from "@taillab/core";
import {
  formatInteger,
  formatMs,
  latencyIndexSeries,
  PERCENTILE_LABELS,
  type PercentileKey,
} from "@taillab/report";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { timelineChartConfig } from "../../shared/chart-timeline.ts";
import { PercentileChooser } from "../../shared/percentile-chooser.tsx";

const TIMELINE_PERCENTILES: readonly PercentileKey[] = ["p50", "p90", "p99", "p999", "p9999"];

/**
 * Latency against request index: where the spikes are. Each column spans a run of consecutive
 * requests; the band is their fastest to slowest, so a single stall among thousands still shows.
 */
export function LatencyTimelineChart({
  buckets,
  stats,
}: {
  buckets: readonly DecimatedBucket[];
  stats: LatencyStats;
}) {
  const { t } = useTranslation("runs");
  const data = useMemo(() => latencyIndexSeries(buckets, stats), [buckets, stats]);
  const [shown, setShown] = useState<PercentileKey[]>(["p99"]);
  const lines = shown.map((key) => ({
    key,
    valueMs: stats[key],
    label: t("charts.percentileLine", {
      percentile: PERCENTILE_LABELS[key],
      value: formatMs(stats[key]),
    }),
  }));
  return (
    <figure className="card chart-card">
      <figcaption>
        <h3>{t("charts.timelineTitle")}</h3>
        <p className="muted">
          {t("charts.timelineNote", {
            requests: formatInteger(data.requests),
            columns: formatInteger(data.columns.length),
          })}
        </p>
      </figcaption>
      <ChartCanvas
        testId="timeline-chart"
        label={t("charts.timelineTitle")}
        deps={[data, lines.map((line) => line.label).join(), t]}
        logScale={data.logScale}
        tools={
          <PercentileChooser
            offered={TIMELINE_PERCENTILES}
            chosen={shown}
            onChange={setShown}
            testId="timeline-chart-percentile"
          />
        }
        build={(theme, view) =>
          timelineChartConfig(theme, data.columns, {
            logScale: view.log,
            labels: {
              band: t("charts.band"),
              slowest: t("charts.slowest"),
              fastest: t("charts.fastest"),
              mean: t("charts.mean"),
              x: t("charts.requestIndex"),
              y: t("charts.latencyMs"),
            },
            percentiles: lines,
            zoom: true,
          })
        }
        resetZoomLabel={t("charts.resetZoom")}
        hint={t("charts.zoomHint")}
        attributes={{
          "data-requests": data.requests,
          "data-columns": data.columns.length,
          "data-p99-ms": data.p99Ms,
          "data-log-scale": data.logScale,
        }}
      />
    </figure>
  );
}
