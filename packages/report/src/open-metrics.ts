import type { Operation } from "@taillab/api";

/**
 * What `taillab run --metrics` serves while a run goes on, as OpenMetrics text (Prometheus reads
 * it): counters over the whole run, per operation, and the phase's live figures. The Grafana
 * dashboard in assets/grafana/ queries these names.
 */
export interface LiveOperationMetrics {
  op: Operation;
  /** Requests answered or failed, over every phase of the run with this operation. */
  requests: number;
  errors: number;
  /** Over about the last second; 0 once the operation's phase has ended. */
  opsPerSec: number;
  /** Over the phase's newest seconds (core's RECENT_WINDOW_SECONDS); null before an answer. */
  p50Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
}

export interface LiveMetrics {
  operations: readonly LiveOperationMetrics[];
  /** Whether TailLab's own client was the bottleneck in its newest second; null before one. */
  clientBound: boolean | null;
  /** The point running (0-based) and how many the run has. */
  pointIndex: number;
  pointCount: number;
}

/** What Prometheus is told to ask for (its scrape negotiates OpenMetrics with this). */
export const OPEN_METRICS_CONTENT_TYPE =
  "application/openmetrics-text; version=1.0.0; charset=utf-8";

/** The metric names, once: the exposition and the dashboard's test read them here. */
export const LIVE_METRIC_NAMES = {
  requests: "taillab_requests",
  errors: "taillab_errors",
  opsPerSec: "taillab_ops_per_second",
  p50: "taillab_latency_p50_seconds",
  p99: "taillab_latency_p99_seconds",
  p999: "taillab_latency_p999_seconds",
  clientBound: "taillab_client_bound",
  point: "taillab_run_point",
  points: "taillab_run_points",
} as const;

interface Family {
  name: string;
  type: "counter" | "gauge";
  unit?: string;
  help: string;
  samples: { labels: string; value: number }[];
}

const secondsOf = (ms: number | null) => (ms === null ? null : ms / 1000);

/** The exposition: one family per figure, a sample per operation, ended by `# EOF`. */
export function formatOpenMetrics(metrics: LiveMetrics): string {
  const perOp = (value: (op: LiveOperationMetrics) => number | null) =>
    metrics.operations.flatMap((op) => {
      const measured = value(op);
      return measured === null ? [] : [{ labels: `{op="${op.op}"}`, value: measured }];
    });
  const latency = (
    name: string,
    level: string,
    pick: (op: LiveOperationMetrics) => number | null,
  ) => ({
    name,
    type: "gauge" as const,
    unit: "seconds",
    help: `${level} latency over the phase's newest seconds (intended start to last byte)`,
    samples: perOp((op) => secondsOf(pick(op))),
  });
  const families: Family[] = [
    {
      name: LIVE_METRIC_NAMES.requests,
      type: "counter",
      help: "Requests answered or failed, over the run",
      samples: perOp((op) => op.requests),
    },
    {
      name: LIVE_METRIC_NAMES.errors,
      type: "counter",
      help: "Requests that failed, over the run (their codes are in the run's summary)",
      samples: perOp((op) => op.errors),
    },
    {
      name: LIVE_METRIC_NAMES.opsPerSec,
      type: "gauge",
      help: "Requests per second over about the last second",
      samples: perOp((op) => op.opsPerSec),
    },
    latency(LIVE_METRIC_NAMES.p50, "p50", (op) => op.p50Ms),
    latency(LIVE_METRIC_NAMES.p99, "p99", (op) => op.p99Ms),
    latency(LIVE_METRIC_NAMES.p999, "p99.9", (op) => op.p999Ms),
    {
      name: LIVE_METRIC_NAMES.clientBound,
      type: "gauge",
      help: "1 when TailLab's own client was the bottleneck in its newest second, else 0",
      samples:
        metrics.clientBound === null ? [] : [{ labels: "", value: metrics.clientBound ? 1 : 0 }],
    },
    {
      name: LIVE_METRIC_NAMES.point,
      type: "gauge",
      help: "The run point running, counted from 1, of taillab_run_points",
      samples: [{ labels: "", value: metrics.pointIndex + 1 }],
    },
    {
      name: LIVE_METRIC_NAMES.points,
      type: "gauge",
      help: "The run points of the run",
      samples: [{ labels: "", value: metrics.pointCount }],
    },
  ];
  const lines = families.flatMap((family) => [
    `# TYPE ${family.name} ${family.type}`,
    ...(family.unit ? [`# UNIT ${family.name} ${family.unit}`] : []),
    `# HELP ${family.name} ${family.help}`,
    // A counter's samples carry the _total suffix; its family name does not.
    ...family.samples.map(
      ({ labels, value }) =>
        `${family.name}${family.type === "counter" ? "_total" : ""}${labels} ${formatValue(value)}`,
    ),
  ]);
  return `${[...lines, "# EOF"].join("\n")}\n`;
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  return String(value);
}
