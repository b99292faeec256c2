import type { Operation } from "@taillab/api";
import { chartedOps, type SweepAxis, type SweepMetric } from "@taillab/core";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { SweepChart } from "./sweep-chart.tsx";
import { sweepAxes, type SweepRun } from "./sweep-chart-data.ts";

const THROUGHPUT: readonly SweepMetric[] = ["throughputMBps"];
const OPS: readonly SweepMetric[] = ["opsPerSec"];
const LATENCY: readonly SweepMetric[] = ["p50Ms", "p99Ms", "p999Ms"];
const P99: readonly SweepMetric[] = ["p99Ms"];

/**
 * The charts the labs drew by hand from a sweep, for each swept axis: one run gets throughput,
 * ops/s and each operation's latency percentiles (as its report does); several runs get
 * throughput and each operation's latency (p99 first; more a click away), a hue per run, so the
 * charts stay readable.
 */
export function SweepSection({ runs, testId }: { runs: readonly SweepRun[]; testId: string }) {
  const { t } = useTranslation("runs");
  const axes = useMemo(() => sweepAxes(runs), [runs]);
  const ops = useMemo(() => chartedOps(runs.map((run) => run.summary)), [runs]);
  if (axes.length === 0) return null;
  const single = runs.length === 1;
  const chartsOf = (sweepAxis: SweepAxis) => {
    const along = t(
      sweepAxis === "objectSize" ? "charts.againstSize" : "charts.againstConcurrency",
    );
    const id = `${testId}-${sweepAxis === "objectSize" ? "size" : "concurrency"}`;
    const charts: {
      key: string;
      metrics: readonly SweepMetric[];
      op?: Operation;
      title: string;
    }[] = [{ key: "mbps", metrics: THROUGHPUT, title: t("charts.sweepThroughput", { along }) }];
    if (single) charts.push({ key: "ops", metrics: OPS, title: t("charts.sweepOps", { along }) });
    // An operation's latency a chart: a run's percentiles are told apart by shade and dash,
    // which leave nothing to tell its operations apart by.
    charts.push(
      ...ops.map((op) => ({
        key: `${single ? "latency" : "p99"}-${op}`,
        metrics: single ? LATENCY : P99,
        op,
        title: t("charts.sweepLatency", { along, op }),
      })),
    );
    return charts.map((chart) => (
      <SweepChart
        key={`${sweepAxis}-${chart.key}`}
        runs={runs}
        axis={sweepAxis}
        metrics={chart.metrics}
        op={chart.op}
        title={chart.title}
        testId={`${id}-${chart.key}`}
      />
    ));
  };
  return (
    <section className="section" data-testid={testId} data-axes={axes.join(",")}>
      <h2>{t("charts.sweepTitle")}</h2>
      <div className="grid-2">{axes.flatMap(chartsOf)}</div>
    </section>
  );
}
