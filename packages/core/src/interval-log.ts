import {
  IntervalCountsSchema,
  OperationSchema,
  type IntervalCounts,
  type IntervalStats,
  type Operation,
  type PhaseIntervals,
} from "@taillab/api";
import hdr from "hdr-histogram-js";
import {
  createLatencyHistogram,
  decodeHistogram,
  type LatencyHistogram,
} from "./latency-histogram.ts";
import { sumIntervalCounts } from "./interval-counts.ts";
import { intervalLatencyMs, tallyOfHistogram, type EncodedTally } from "./latency-tally.ts";
import { INTERVAL_US, type PhaseAccountDelta } from "./phase-account.ts";

/**
 * A run's percentiles over time in HdrHistogram's interval log format (version 1.3), written by
 * hdr-histogram-js's HistogramLogWriter and read by its HistogramLogReader, so the HdrHistogram
 * tools (HistogramLogAnalyzer, HdrHistogram's LogReader) read it as it is:
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

/** Our counts line is a comment: what follows the `#` that the writer's outputComment puts first. */
const COUNTS_COMMENT = "[TailLab counts v1] ";
const COUNTS_PREFIX = `#${COUNTS_COMMENT}`;

/**
 * The log format has no field for units, and HdrHistogram's HistogramLogProcessor takes values
 * as nanoseconds unless told (`-outputValueUnitRatio`, default 1e6): read as they are, TailLab's
 * microseconds would print 1 000× too small. So the header says what they are and how to read them.
 */
const VALUE_UNITS =
  "[Values in microseconds, Interval_Max in milliseconds: HistogramLogProcessor -outputValueUnitRatio 1000]";

/** µs per ms: what the writer divides a histogram's max by for Interval_Max, as the header says. */
const MAX_VALUE_UNIT_RATIO = 1000;

/** Text the writer's calls put out, gathered into one string. */
function writtenBy(write: (writer: hdr.HistogramLogWriter) => void): string {
  let text = "";
  write(new hdr.HistogramLogWriter((part) => (text += part)));
  return text;
}

export function intervalLogHeader(runStartEpochMs: number): string {
  return writtenBy((writer) => {
    writer.outputLogFormatVersion();
    // The StartTime line outputStartTime writes, but for its date: hdr-histogram-js 3.0.1's is in
    // the machine's time zone and ends the line twice (an empty line follows); ours is UTC.
    const seconds = (runStartEpochMs / 1000).toFixed(3);
    const date = new Date(runStartEpochMs).toISOString();
    writer.outputComment(`[StartTime: ${seconds} (seconds since epoch), ${date}]`);
    writer.outputComment(VALUE_UNITS);
    writer.outputLegend();
  });
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
  if (line.kind === "counts") {
    const { bytes, errorsByCode } = line.counts;
    const times = `${line.startS.toFixed(3)},${line.lengthS.toFixed(3)}`;
    const counts = JSON.stringify({ bytes, errorsByCode });
    return writtenBy((writer) =>
      writer.outputComment(`${COUNTS_COMMENT}Tag=${tagOf(line)},${times},${counts}`),
    );
  }
  const histogram = decodeHistogram(line.tally.histogram);
  histogram.tag = tagOf(line);
  // A decoded histogram's max is the top of its bucket (up to 0.1 % high); the tally kept the
  // exact one, which is what the histogram held when it was recorded, and Interval_Max states.
  (histogram as { maxValue: number }).maxValue = line.tally.maxUs;
  const text = writtenBy((writer) =>
    writer.outputIntervalHistogram(
      histogram,
      line.startS,
      line.startS + line.lengthS,
      MAX_VALUE_UNIT_RATIO,
    ),
  );
  histogram.destroy();
  return text;
}

/** A whole log: the header, then the lines. */
export function formatIntervalLog(
  runStartEpochMs: number,
  lines: readonly IntervalLogLine[],
): string {
  return intervalLogHeader(runStartEpochMs) + lines.map(formatIntervalLogLine).join("");
}

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

/**
 * A histogram line as read. The histogram is the reader's: it is destroyed once the callback
 * that was given it returns.
 */
export interface IntervalHistogramRead extends IntervalLineOf {
  kind: IntervalLineKind;
  histogram: LatencyHistogram;
  /** Interval_Max, exact, where the decoded histogram knows only its bucket. */
  maxUs: number;
}

export type IntervalLogRead = IntervalHistogramRead | IntervalCountsLine;

export interface IntervalLogReading {
  runStartEpochMs: number | null;
  /** Interval and counts lines read. */
  linesRead: number;
  /** Lines that could not be read: cut short (a torn last line), damaged, or not TailLab's. */
  skippedLines: number;
}

/**
 * Reads a log line by line, in the order written: its histograms with hdr-histogram-js's
 * HistogramLogReader (tags, times against the StartTime, the histograms decoded), our own
 * `#[TailLab counts v1]` comments, which that reader passes over, with our own code. A line the
 * reader cannot decode is skipped and counted, and reading goes on after it.
 */
export function readIntervalLog(
  text: string,
  onLine: (line: IntervalLogRead) => void = () => {},
): IntervalLogReading {
  const reader = new hdr.HistogramLogReader(text);
  let linesRead = 0;
  let skippedLines = 0;
  const readOrSkip = (line: IntervalLogRead | null) => {
    if (!line) return void (skippedLines += 1);
    linesRead += 1;
    onLine(line);
  };
  let passedFrom = 0;
  for (let more = true; more;) {
    let histogram: LatencyHistogram | null = null;
    let undecodable = false;
    try {
      histogram = reader.nextIntervalHistogram();
    } catch {
      undecodable = true;
    }
    more = histogram !== null || undecodable;
    // The lines the reader passed over to get to this interval line (or to the end): comments,
    // ours among them, the legend, and lines that are none of these.
    const passedTo = more ? reader.currentLineIndex - 1 : reader.lines.length;
    for (let index = passedFrom; index < passedTo; index++) {
      const line = reader.lines[index] as string;
      if (line.startsWith(COUNTS_PREFIX)) readOrSkip(countsLineOf(line));
      else if (line !== "" && !line.startsWith("#") && !line.startsWith('"')) readOrSkip(null);
    }
    passedFrom = reader.currentLineIndex;
    if (histogram) {
      readOrSkip(histogramLineOf(histogram, reader));
      histogram.destroy();
    } else if (undecodable) {
      readOrSkip(null);
    }
  }
  // Unset when the log states no StartTime.
  const startS = reader.startTimeSec as number | undefined;
  return {
    runStartEpochMs: startS === undefined ? null : Math.round(startS * 1000),
    linesRead,
    skippedLines,
  };
}

const HISTOGRAM_TAG = /^p(\d+)\/([A-Z_]+)(?:\/(failed|backups))?$/;

/** The line the reader just read, or null when its tag or Interval_Max is not ours. */
function histogramLineOf(
  histogram: LatencyHistogram,
  reader: hdr.HistogramLogReader,
): IntervalHistogramRead | null {
  const tag = HISTOGRAM_TAG.exec(histogram.tag);
  const op = OperationSchema.safeParse(tag?.[2]);
  // The reader passes Interval_Max by; the line the reader has just read states it.
  const maxMs = Number(reader.lines[reader.currentLineIndex - 1]?.split(",", 4)[3]);
  if (!tag || !op.success || !Number.isFinite(maxMs)) return null;
  // The log states times to the ms; the reader adds the StartTime back to them in seconds.
  const startMs = Math.round(histogram.startTimeStampMsec - reader.baseTimeSec * 1000);
  const endMs = Math.round(histogram.endTimeStampMsec - reader.baseTimeSec * 1000);
  return {
    pointIndex: Number(tag[1]),
    op: op.data,
    kind: (tag[3] as "failed" | "backups" | undefined) ?? "latency",
    startS: startMs / 1000,
    lengthS: (endMs - startMs) / 1000,
    histogram,
    maxUs: Math.round(maxMs * 1000),
  };
}

const COUNTS_LINE = /^#\[TailLab counts v1\] Tag=p(\d+)\/([A-Z_]+),([\d.]+),([\d.]+),(\{.*\})$/;

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

/** A second of a phase being added up from its lines. */
interface SecondBeingRead {
  pointIndex: number;
  op: Operation;
  startMs: number;
  lengthMs: number;
  latency: LatencyHistogram | null;
  maxUs: number;
  errors: number;
  backups: number;
  counts: IntervalCounts[];
}

/**
 * Percentiles over time per point and operation, from a log. A second with more than one line of
 * a kind (answers that came after its line was written, or two repetitions meeting in it) is
 * their sum: histograms added, never percentiles averaged. Each second is summed up as soon as
 * its last line is read, so only seconds still open hold a histogram: kept for every second of
 * a long run, at ~32 KB each, an 8-hour run's would take a gigabyte.
 */
export function intervalsFromLog(text: string): PhaseIntervals[] {
  const linesLeft = linesPerSecond(text);
  const open = new Map<string, SecondBeingRead>();
  const read: { pointIndex: number; op: Operation; interval: IntervalStats }[] = [];
  const close = (second: SecondBeingRead) =>
    read.push({ pointIndex: second.pointIndex, op: second.op, interval: intervalOf(second) });
  readIntervalLog(text, (line) => {
    const startMs = Math.round(line.startS * 1000);
    const key = secondKey(line.pointIndex, line.op, startMs);
    let second = open.get(key);
    if (!second) {
      second = {
        pointIndex: line.pointIndex,
        op: line.op,
        startMs,
        lengthMs: Math.round(line.lengthS * 1000),
        latency: null,
        maxUs: 0,
        errors: 0,
        backups: 0,
        counts: [],
      };
      open.set(key, second);
    }
    addLine(second, line);
    const left = linesLeft.get(key);
    // A line the count did not foresee (a malformed time) leaves its second open to the end.
    if (left === 1) {
      open.delete(key);
      close(second);
    } else if (left !== undefined) {
      linesLeft.set(key, left - 1);
    }
  });
  // Seconds with a line that could not be read.
  for (const second of open.values()) close(second);
  const byPhase = new Map<string, PhaseIntervals>();
  for (const { pointIndex, op, interval } of read) {
    const key = `${pointIndex}/${op}`;
    const phase = byPhase.get(key) ?? { pointIndex, op, intervals: [] };
    byPhase.set(key, phase);
    phase.intervals.push(interval);
  }
  return [...byPhase.values()]
    .sort(
      (a, b) =>
        a.pointIndex - b.pointIndex ||
        OperationSchema.options.indexOf(a.op) - OperationSchema.options.indexOf(b.op),
    )
    .map((phase) => ({
      ...phase,
      intervals: phase.intervals.sort((a, b) => a.startMs - b.startMs),
    }));
}

function secondKey(pointIndex: number, op: string, startMs: number): string {
  return `${pointIndex}/${op}/${startMs}`;
}

const SECOND_OF_LINE = /^(?:#\[TailLab counts v1\] )?Tag=p(\d+)\/([A-Z_]+)[^,]*,([\d.]+),/;

/**
 * How many lines each second of each phase has, from the lines' tags and times alone (no
 * histogram decoded): HdrHistogram's reader cannot say whether more lines of a second are to come.
 */
function linesPerSecond(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split("\n")) {
    const match = SECOND_OF_LINE.exec(line);
    if (!match) continue;
    const key = secondKey(
      Number(match[1]),
      match[2] as string,
      Math.round(Number(match[3]) * 1000),
    );
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function addLine(second: SecondBeingRead, line: IntervalLogRead): void {
  if (line.kind === "counts") {
    second.counts.push(line.counts);
  } else if (line.kind === "latency") {
    second.latency ??= createLatencyHistogram();
    second.latency.add(line.histogram);
    second.maxUs = Math.max(second.maxUs, line.maxUs);
  } else if (line.kind === "failed") {
    second.errors += line.histogram.totalCount;
  } else {
    second.backups += line.histogram.totalCount;
  }
}

/** A second's figures from its lines; its histogram is freed. */
function intervalOf(second: SecondBeingRead): IntervalStats {
  const { latency } = second;
  const interval: IntervalStats = {
    startMs: second.startMs,
    lengthMs: second.lengthMs,
    requests: latency?.totalCount ?? 0,
    errors: second.errors,
    p50Ms: null,
    p99Ms: null,
    p999Ms: null,
    maxMs: null,
    backups: second.backups,
  };
  Object.assign(
    interval,
    intervalLatencyMs(latency && tallyOfHistogram(latency, second.maxUs)),
    sumIntervalCounts(second.counts),
  );
  latency?.destroy();
  second.latency = null;
  return interval;
}
