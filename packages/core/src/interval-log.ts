import {
  IntervalCountsSchema,
  OperationSchema,
  type IntervalCounts,
  type IntervalStats,
  type Operation,
  type PhaseIntervals,
} from "@taillab/api";
import {
  createLatencyHistogram,
  decodeHistogram,
  mergeEncodedHistogram,
} from "./latency-histogram.ts";
import { sumIntervalCounts } from "./interval-counts.ts";
import { intervalLatencyMs, tallyOfHistogram, type EncodedTally } from "./latency-tally.ts";
import { INTERVAL_US, type PhaseAccountDelta } from "./phase-account.ts";

/**
 * A run's percentiles over time in HdrHistogram's interval log format (version 1.3), so the
 * HdrHistogram tools (HistogramLogAnalyzer, HdrHistogram's LogReader) read it as it is:
 *
 *   #[Histogram log format version 1.3]
 *   #[StartTime: 1764045600.123 (seconds since epoch), 2025-11-25T04:40:00.123Z]
 *   #[Values in microseconds, Interval_Max in milliseconds: HistogramLogProcessor -outputValueUnitRatio 1000]
 *   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
 *   Tag=p0/GET,1.000,1.000,12.345,HISTFAAAA…
 *
 * One line per operation of a point per second of the run clock (seconds since StartTime, the
 * run's start): the interval's successful requests' latencies (µs, max in ms); the failed
 * requests' times to failure under the tag `p<point>/<OP>/failed`; the backups their requests
 * sent, each as its wait after the first attempt, under `p<point>/<OP>/backups`. What the second
 * moved and how its requests failed (IntervalCountsSchema) is a comment line, which HdrHistogram's
 * readers skip as they skip every `#` line:
 *
 *   #[TailLab counts v1] Tag=p0/GET,1.000,1.000,{"bytes":1048576,"errorsByCode":{"SlowDown":2}}
 *
 * A log written before those lines were kept has none: its seconds' bytes and codes are not known
 * (absent from their IntervalStats, never 0). A run appends
 * each second's lines once it is over, so a long run holds only its newest seconds; answers that
 * land in a second after its lines were written get lines of their own, and a reader adds up the
 * lines of a second (as HdrHistogram's tools add the intervals they are asked to join).
 */

/** latency: successful requests; failed: times to failure; backups: the backups' waits. */
export type IntervalLineKind = "latency" | "failed" | "backups";

interface IntervalLineOf {
  pointIndex: number;
  op: Operation;
  /** Seconds of the run clock. */
  startS: number;
  lengthS: number;
}

/** A line with a histogram, which HdrHistogram's tools read. */
export interface IntervalHistogramLine extends IntervalLineOf {
  kind: IntervalLineKind;
  tally: EncodedTally;
}

/** A `#[TailLab counts v1]` comment line: the second's bytes and errors by code. */
export interface IntervalCountsLine extends IntervalLineOf {
  kind: "counts";
  counts: IntervalCounts;
}

export type IntervalLogLine = IntervalHistogramLine | IntervalCountsLine;

const COUNTS_PREFIX = "#[TailLab counts v1] ";

/**
 * The log format has no field for units, and HdrHistogram's HistogramLogProcessor takes values
 * as nanoseconds unless told (`-outputValueUnitRatio`, default 1e6): read as they are, TailLab's
 * microseconds would print 1 000× too small. So the header says what they are and how to read them.
 */
const VALUE_UNITS =
  "#[Values in microseconds, Interval_Max in milliseconds: HistogramLogProcessor -outputValueUnitRatio 1000]";

export function intervalLogHeader(runStartEpochMs: number): string {
  return [
    "#[Histogram log format version 1.3]",
    `#[StartTime: ${(runStartEpochMs / 1000).toFixed(3)} (seconds since epoch), ${new Date(runStartEpochMs).toISOString()}]`,
    VALUE_UNITS,
    '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
    "",
  ].join("\n");
}

function tagOf(line: IntervalLogLine): string {
  const suffix = line.kind === "latency" || line.kind === "counts" ? "" : `/${line.kind}`;
  return `p${line.pointIndex}/${line.op}${suffix}`;
}

/** The log lines of one operation of a point, from its account's intervals. */
export function intervalLogLines(
  pointIndex: number,
  op: Operation,
  intervals: PhaseAccountDelta["intervals"],
): IntervalLogLine[] {
  const lengthS = INTERVAL_US / 1e6;
  return intervals.flatMap(({ index, latency, failures, backups, counts }) => {
    const second = { pointIndex, op, startS: index * lengthS, lengthS };
    const histograms = (
      [
        { kind: "latency", tally: latency },
        { kind: "failed", tally: failures },
        { kind: "backups", tally: backups },
      ] as const
    ).flatMap(({ kind, tally }): IntervalLogLine[] => (tally ? [{ ...second, kind, tally }] : []));
    return counts ? [...histograms, { ...second, kind: "counts" as const, counts }] : histograms;
  });
}

export function formatIntervalLogLine(line: IntervalLogLine): string {
  const times = `${line.startS.toFixed(3)},${line.lengthS.toFixed(3)}`;
  if (line.kind === "counts") {
    const { bytes, errorsByCode } = line.counts;
    return `${COUNTS_PREFIX}Tag=${tagOf(line)},${times},${JSON.stringify({ bytes, errorsByCode })}\n`;
  }
  const maxMs = (line.tally.maxUs / 1000).toFixed(3);
  return `Tag=${tagOf(line)},${times},${maxMs},${line.tally.histogram}\n`;
}

const LINE = /^Tag=p(\d+)\/([A-Z_]+)(?:\/(failed|backups))?,([\d.]+),([\d.]+),([\d.]+),(\S+)$/;

const COUNTS_LINE = /^#\[TailLab counts v1\] Tag=p(\d+)\/([A-Z_]+),([\d.]+),([\d.]+),(\{.*\})$/;

const TAG = /^(?:#\[TailLab counts v1\] )?Tag=p(\d+)\/([A-Z_]+)[/,]/;

/**
 * The log's text without the lines of the phases `drop` names (by point and operation): a phase
 * that never ended wrote only the seconds it was done with, and its lines are rebuilt whole from
 * its records instead.
 */
export function intervalLogWithout(
  text: string,
  drop: (pointIndex: number, op: Operation) => boolean,
): string {
  return text
    .split("\n")
    .filter((line) => {
      const tag = TAG.exec(line);
      const op = OperationSchema.safeParse(tag?.[2]);
      return !(tag && op.success && drop(Number(tag[1]), op.data));
    })
    .join("\n");
}

export interface ParsedIntervalLog {
  runStartEpochMs: number | null;
  lines: IntervalLogLine[];
  /** Lines that are neither comments, the legend, nor interval lines (a torn last line). */
  skippedLines: number;
}

export function parseIntervalLog(text: string): ParsedIntervalLog {
  let runStartEpochMs: number | null = null;
  const lines: IntervalLogLine[] = [];
  let skippedLines = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith('"StartTimestamp"')) continue;
    if (line.startsWith(COUNTS_PREFIX)) {
      const counts = countsLineOf(line);
      if (counts) lines.push(counts);
      else skippedLines += 1;
      continue;
    }
    if (line.startsWith("#")) {
      const start = /^#\[StartTime: ([\d.]+)/.exec(line);
      if (start) runStartEpochMs = Math.round(Number(start[1]) * 1000);
      continue;
    }
    const match = LINE.exec(line);
    const op = OperationSchema.safeParse(match?.[2]);
    if (!match || !op.success) {
      skippedLines += 1;
      continue;
    }
    const histogram = match[7] as string;
    const maxUs = Math.round(Number(match[6]) * 1000);
    lines.push({
      pointIndex: Number(match[1]),
      op: op.data,
      kind: (match[3] as "failed" | "backups" | undefined) ?? "latency",
      startS: Number(match[4]),
      lengthS: Number(match[5]),
      // Count, sum and min are the histogram's own once it is decoded.
      tally: { histogram, count: 0, sumUs: 0, minUs: 0, maxUs },
    });
  }
  return { runStartEpochMs, lines, skippedLines };
}

/** A counts line as read, or null when it is torn or not of the shape its version names. */
function countsLineOf(line: string): IntervalCountsLine | null {
  const match = COUNTS_LINE.exec(line);
  const op = OperationSchema.safeParse(match?.[2]);
  if (!match || !op.success) return null;
  let json: unknown;
  try {
    json = JSON.parse(match[5] as string);
  } catch {
    return null;
  }
  const counts = IntervalCountsSchema.safeParse(json);
  if (!counts.success) return null;
  return {
    pointIndex: Number(match[1]),
    op: op.data,
    kind: "counts",
    startS: Number(match[3]),
    lengthS: Number(match[4]),
    counts: counts.data,
  };
}

/**
 * Percentiles over time per point and operation, from a parsed log. A second with more than one
 * line of a kind (answers that came after its line was written, or two repetitions meeting in
 * it) is their sum: histograms added, never percentiles averaged.
 */
export function intervalsFromLog(lines: readonly IntervalLogLine[]): PhaseIntervals[] {
  const byPhase = new Map<
    string,
    { pointIndex: number; op: Operation; byStart: Map<number, IntervalLogLine[]> }
  >();
  for (const line of lines) {
    const key = `${line.pointIndex}/${line.op}`;
    let phase = byPhase.get(key);
    if (!phase) {
      phase = { pointIndex: line.pointIndex, op: line.op, byStart: new Map() };
      byPhase.set(key, phase);
    }
    const startMs = Math.round(line.startS * 1000);
    const second = phase.byStart.get(startMs);
    if (second) second.push(line);
    else phase.byStart.set(startMs, [line]);
  }
  return [...byPhase.values()]
    .sort(
      (a, b) =>
        a.pointIndex - b.pointIndex ||
        OperationSchema.options.indexOf(a.op) - OperationSchema.options.indexOf(b.op),
    )
    .map(({ pointIndex, op, byStart }) => ({
      pointIndex,
      op,
      intervals: [...byStart]
        .sort(([a], [b]) => a - b)
        .map(([startMs, second]) => intervalOfLines(startMs, second)),
    }));
}

/** One second's figures from its lines (one histogram decoded at a time). */
function intervalOfLines(startMs: number, lines: readonly IntervalLogLine[]): IntervalStats {
  const interval: IntervalStats = {
    startMs,
    lengthMs: Math.round((lines[0]?.lengthS ?? 0) * 1000),
    requests: 0,
    errors: 0,
    p50Ms: null,
    p99Ms: null,
    p999Ms: null,
    maxMs: null,
    backups: 0,
  };
  const latency = createLatencyHistogram();
  let maxUs = 0;
  let backups = 0;
  const counts = lines.flatMap((line) => (line.kind === "counts" ? [line.counts] : []));
  for (const line of lines) {
    if (line.kind === "counts") continue;
    if (line.kind === "latency") {
      mergeEncodedHistogram(latency, line.tally.histogram);
      maxUs = Math.max(maxUs, line.tally.maxUs);
      continue;
    }
    const histogram = decodeHistogram(line.tally.histogram);
    if (line.kind === "failed") interval.errors += histogram.totalCount;
    else backups += histogram.totalCount;
    histogram.destroy();
  }
  interval.requests = latency.totalCount;
  interval.backups = backups;
  Object.assign(
    interval,
    intervalLatencyMs(tallyOfHistogram(latency, maxUs)),
    sumIntervalCounts(counts),
  );
  latency.destroy();
  return interval;
}
