import { PERCENTILE_LEVELS, type IntervalStats, type PhaseIntervals } from "@taillab/api";
import { errorCodesOf, intervalRates, requestsBeyond } from "@taillab/core";
import { csvRow, UTF8_BOM, type CsvValue } from "./csv.ts";

/**
 * Percentiles over time as CSV (`taillab report --format csv --per-second`): one row per run ×
 * point × operation × second, each percentile beside its 95 % interval (ends as in summary.csv:
 * 0 below and "inf" above where the requests do not bound it) and the requests slower than it,
 * which says when a second's figure rests on few (core's FEW_REQUESTS_BEYOND). Percentile
 * columns are empty in a second without an answer; interval columns also in figures made before
 * they were kept. Each second's bytes, MB/s (MiB) and, after the fixed columns, one
 * `Errors: <code>` column per error code the rows hold (most failures first) are empty for runs
 * stored before seconds kept them: not known, never 0.
 */

interface OverTimeRow {
  runId: string;
  phase: PhaseIntervals;
  second: IntervalStats;
}

interface Column {
  name: string;
  value: (row: OverTimeRow) => CsvValue;
}

function percentileColumns(name: "p50" | "p99" | "p999"): Column[] {
  const level = PERCENTILE_LEVELS[name];
  const label = `${level}th %ile`;
  const interval = (row: OverTimeRow) => row.second.percentileIntervals?.[name];
  return [
    { name: `${label} (ms)`, value: (row) => row.second[`${name}Ms`] },
    { name: `${label} 95% Low (ms)`, value: (row) => interval(row) && (interval(row)?.lo ?? 0) },
    {
      name: `${label} 95% High (ms)`,
      value: (row) => interval(row) && (interval(row)?.hi ?? "inf"),
    },
    {
      name: `${label} Requests Beyond`,
      value: (row) =>
        row.second.requests > 0 ? requestsBeyond(row.second.requests, level) : undefined,
    },
  ];
}

const COLUMNS: readonly Column[] = [
  { name: "Run ID", value: (row) => row.runId },
  { name: "Point", value: (row) => row.phase.pointIndex + 1 },
  { name: "Operation", value: (row) => row.phase.op },
  { name: "Start (s)", value: (row) => row.second.startMs / 1000 },
  { name: "Length (s)", value: (row) => row.second.lengthMs / 1000 },
  { name: "Requests", value: (row) => row.second.requests },
  { name: "Number of Errors", value: (row) => row.second.errors },
  { name: "Bytes", value: (row) => row.second.bytes },
  {
    name: "Throughput (MB/s)",
    value: (row) => intervalRates(row.second).mibPerSec ?? undefined,
  },
  { name: "Backups", value: (row) => row.second.backups },
  { name: "Max (ms)", value: (row) => row.second.maxMs },
  ...percentileColumns("p999"),
  ...percentileColumns("p99"),
  ...percentileColumns("p50"),
];

/** The columns every per-second CSV has, before its error codes' own. */
export const OVER_TIME_CSV_COLUMNS: readonly string[] = COLUMNS.map((column) => column.name);

function errorCodeColumn(code: string): Column {
  return {
    name: `Errors: ${code}`,
    value: ({ second }) => (second.errorsByCode ? (second.errorsByCode[code] ?? 0) : undefined),
  };
}

export function overTimeCsv(
  runs: readonly { runId: string; intervals: readonly PhaseIntervals[] }[],
  options: { withBom?: boolean } = {},
): string {
  const seconds = runs.flatMap((run) => run.intervals.flatMap((phase) => phase.intervals));
  const columns = [...COLUMNS, ...errorCodesOf(seconds).map(errorCodeColumn)];
  let text = (options.withBom ? UTF8_BOM : "") + csvRow(columns.map((column) => column.name));
  for (const { runId, intervals } of runs) {
    for (const phase of intervals) {
      for (const second of phase.intervals) {
        text += csvRow(columns.map((column) => column.value({ runId, phase, second })));
      }
    }
  }
  return text;
}
