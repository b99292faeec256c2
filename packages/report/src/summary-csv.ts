import {
  PERCENTILE_LEVELS,
  type PercentileName,
  type LatencyStats,
  type PhaseSummary,
  type PointSummary,
  type RunSummary,
  type TailBreakdown,
} from "@taillab/api";
import { serverAndStall } from "@taillab/core";
import { csvRow, UTF8_BOM, type CsvValue } from "./csv.ts";

/**
 * summary.csv: one row per run × point × phase, with s3bench's column names. Units are in every
 * column name: latencies in milliseconds (s3bench prints seconds; ms keeps microsecond digits
 * readable), durations in seconds as s3bench prints them, and MB meaning MiB as s3bench does.
 */

interface Column {
  name: string;
  value: (row: SummaryRow) => CsvValue;
}

interface SummaryRow {
  summary: RunSummary;
  runName: string;
  pointIndex: number;
  point: PointSummary;
  phase: PhaseSummary;
}

const MIB = 1024 * 1024;

/** Rounds away binary dust (0.1 + 0.2) without hiding real digits. */
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

const secondsOf = (ms: number | undefined) => (ms === undefined ? undefined : round(ms / 1000, 6));

/** p50, p99 and p99.9 of one of a phase's time figures (empty when it has none). */
function figureColumns(
  label: string,
  figure: (phase: PhaseSummary) => LatencyStats | null | undefined,
): Column[] {
  return (
    [
      ["50th", "p50"],
      ["99th", "p99"],
      ["99.9th", "p999"],
    ] as const
  ).map(([ordinal, level]) => ({
    name: `${label} ${ordinal} %ile (ms)`,
    value: (row) => figure(row.phase)?.[level],
  }));
}

/**
 * Each latency percentile's 95 % interval (empty in runs recorded before intervals were kept):
 * an end the requests do not bound is 0 below and "inf" above, as spreadsheets and pandas read it.
 */
function intervalColumns(): Column[] {
  const intervals = (row: SummaryRow) => row.phase.latencyMs?.intervals;
  return [
    { name: "Histogram Precision (%)", value: (row) => intervals(row)?.precisionPct },
    ...(Object.keys(PERCENTILE_LEVELS) as PercentileName[]).reverse().flatMap((name): Column[] => {
      // Every level TailLab reports ends in "th": 25th … 99.99th, as s3bench names them.
      const label = `${PERCENTILE_LEVELS[name]}th %ile`;
      const interval = (row: SummaryRow) => intervals(row)?.byLevel[name];
      return [
        {
          name: `${label} 95% Low (ms)`,
          value: (row) => interval(row) && (interval(row)?.lo ?? 0),
        },
        {
          name: `${label} 95% High (ms)`,
          value: (row) => interval(row) && (interval(row)?.hi ?? "inf"),
        },
      ];
    }),
  ];
}

/**
 * Where the slowest 1 % or 0.1 % of a phase's successful requests spent their time, as the run
 * detail and the HTML report show it (empty when no request succeeded): the client's own stall
 * taken out of the server's time (empty in a run recorded before it was measured), connects and
 * uploads apart from the client queue and the server (empty in a run recorded before they were).
 */
function tailColumns(share: string, level: keyof TailBreakdown): Column[] {
  const part = (row: SummaryRow) => row.phase.tail?.[level];
  return [
    { name: `Slowest ${share} Requests`, value: (row) => part(row)?.requests },
    { name: `Slowest ${share} From (ms)`, value: (row) => part(row)?.fromMs },
    { name: `Slowest ${share} Mean (ms)`, value: (row) => part(row)?.meanMs },
    { name: `Slowest ${share} Client Queue (ms)`, value: (row) => part(row)?.clientQueueMs },
    { name: `Slowest ${share} Connect (ms)`, value: (row) => part(row)?.connectMs },
    { name: `Slowest ${share} Backup Wait (ms)`, value: (row) => part(row)?.hedgeWaitMs },
    { name: `Slowest ${share} Upload (ms)`, value: (row) => part(row)?.uploadMs },
    {
      name: `Slowest ${share} Server (ms)`,
      value: (row) => (part(row) ? serverAndStall(row.phase, level).serverMs : undefined),
    },
    {
      name: `Slowest ${share} Client Stall (ms)`,
      value: (row) => (part(row) ? serverAndStall(row.phase, level).clientStallMs : undefined),
    },
    { name: `Slowest ${share} Transfer (ms)`, value: (row) => part(row)?.transferMs },
  ];
}

const COLUMNS: readonly Column[] = [
  { name: "Run ID", value: (row) => row.summary.runId },
  { name: "Run Name", value: (row) => row.runName },
  { name: "Started At", value: (row) => row.summary.startedAt },
  { name: "Point", value: (row) => row.pointIndex + 1 },
  { name: "Clients", value: (row) => row.point.params.clients },
  { name: "Samples", value: (row) => row.point.params.samples },
  { name: "Object Size (bytes)", value: (row) => row.point.params.objectSizeBytes },
  { name: "Operation", value: (row) => row.phase.op },
  { name: "Mode", value: (row) => row.summary.mode },
  { name: "Loop", value: (row) => row.phase.loop },
  { name: "Requests", value: (row) => row.phase.requests },
  { name: "Total Transferred (MB)", value: (row) => round(row.phase.bytes / MIB, 6) },
  { name: "Total Throughput (MB/s)", value: (row) => row.phase.throughputMBps },
  { name: "Operations per Second", value: (row) => row.phase.opsPerSec },
  { name: "Total Duration (s)", value: (row) => round(row.phase.durationMs / 1000, 6) },
  { name: "Number of Errors", value: (row) => row.phase.errors },
  {
    name: "Errors by Code",
    value: (row) =>
      Object.entries(row.phase.errorsByCode)
        .map(([code, count]) => `${code}=${count}`)
        .join(" "),
  },
  // Requests a stop cut off in flight: recorded, counted in no other column; empty when none.
  { name: "Cut Off by Stop", value: (row) => row.phase.cutOff },
  // Latency columns are empty where no request succeeded.
  { name: "Max (ms)", value: (row) => row.phase.latencyMs?.max },
  { name: "99.99th %ile (ms)", value: (row) => row.phase.latencyMs?.p9999 },
  { name: "99.9th %ile (ms)", value: (row) => row.phase.latencyMs?.p999 },
  { name: "99th %ile (ms)", value: (row) => row.phase.latencyMs?.p99 },
  { name: "90th %ile (ms)", value: (row) => row.phase.latencyMs?.p90 },
  { name: "75th %ile (ms)", value: (row) => row.phase.latencyMs?.p75 },
  { name: "50th %ile (ms)", value: (row) => row.phase.latencyMs?.p50 },
  { name: "25th %ile (ms)", value: (row) => row.phase.latencyMs?.p25 },
  { name: "Min (ms)", value: (row) => row.phase.latencyMs?.min },
  { name: "Mean (ms)", value: (row) => row.phase.latencyMs?.mean },
  { name: "Stdev (ms)", value: (row) => row.phase.latencyMs?.stdev },
  ...intervalColumns(),
  { name: "Steady Throughput (MB/s)", value: (row) => row.phase.steady?.throughputMBps },
  { name: "Steady Operations per Second", value: (row) => row.phase.steady?.opsPerSec },
  { name: "Steady Window (s)", value: (row) => secondsOf(row.phase.steady?.durationMs) },
  ...figureColumns("Client Queue", (phase) => phase.clientQueueMs),
  // Empty in runs recorded before connects and uploads were (not 0).
  ...figureColumns("Connect", (phase) => phase.connectMs),
  ...figureColumns("Service", (phase) => phase.serviceMs),
  ...figureColumns("Upload", (phase) => phase.uploadMs),
  ...figureColumns("TTFB", (phase) => phase.ttfbMs),
  ...figureColumns("Transfer", (phase) => phase.transferMs),
  ...tailColumns("1%", "p99"),
  ...tailColumns("0.1%", "p999"),
  { name: "Missed Starts", value: (row) => row.phase.missedStarts },
  // Empty where the phase sent no backups (normal mode), rather than a misleading 0 of a budget.
  { name: "Hedge Extra (%)", value: (row) => row.phase.hedge?.extraPct },
  { name: "Hedge Not Sent", value: (row) => row.phase.hedge?.notSent },
  { name: "Hedge Wasted (bytes)", value: (row) => row.phase.hedge?.wastedBytes },
  { name: "Hedge Cancelled", value: (row) => row.phase.hedge?.cancelled },
  { name: "Reconnects After Cancel", value: (row) => row.phase.hedge?.reconnects },
  { name: "Reconnect Mean (ms)", value: (row) => row.phase.hedge?.reconnectMeanMs },
  { name: "Won by Backup", value: (row) => row.phase.hedge?.wonByBackup },
  { name: "Backups to the Same Replica", value: (row) => row.phase.hedge?.sameReplica },
  { name: "Point Finished", value: (row) => row.point.finished },
  { name: "Run Status", value: (row) => row.summary.status },
];

export const SUMMARY_CSV_COLUMNS: readonly string[] = COLUMNS.map((column) => column.name);

export interface SummaryCsvOptions {
  /** Start with a UTF-8 byte-order mark so Excel reads non-ASCII run names correctly. */
  withBom?: boolean;
  /** Names by run id (a run's stored name); otherwise the spec's name, if any. */
  runNames?: Readonly<Record<string, string>>;
}

export function summaryCsv(
  summaries: readonly RunSummary[],
  options: SummaryCsvOptions = {},
): string {
  let text = (options.withBom ? UTF8_BOM : "") + csvRow(SUMMARY_CSV_COLUMNS);
  for (const summary of summaries) {
    const runName = options.runNames?.[summary.runId] ?? summary.spec.name ?? "";
    summary.points.forEach((point, pointIndex) => {
      for (const phase of point.phases) {
        const row: SummaryRow = { summary, runName, pointIndex, point, phase };
        text += csvRow(COLUMNS.map((column) => column.value(row)));
      }
    });
  }
  return text;
}
