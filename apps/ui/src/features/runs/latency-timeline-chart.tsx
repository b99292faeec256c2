import type { LatencyStats } from "@taillab/api";
import type { DecimatedBucket } from "@taillab/core";
import { formatInteger, formatMs } from "@taillab/report";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import { timelineChartConfig } from "../../shared/chart-timeline.ts";
import { timelineChartData } from "./timeline-chart-data.ts";

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
  const data = useMemo(() => timelineChartData(buckets, stats), [buckets, stats]);
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
        deps={[data, t]}
        build={(theme) =>
          timelineChartConfig(theme, data.columns, {
            logScale: data.logScale,
            labels: {
              band: t("charts.band"),
              slowest: t("charts.slowest"),
              fastest: t("charts.fastest"),
              mean: t("charts.mean"),
              x: t("charts.requestIndex"),
              y: t("charts.latencyMs"),
            },
            p99: {
              valueMs: data.p99Ms,
              label: t("charts.p99Line", { value: formatMs(data.p99Ms) }),
            },
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
