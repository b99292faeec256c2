import type { Operation, ToolLatencyFigure, ToolLatencyMs } from "@taillab/api";
import { phaseOfToolFigures, type ImportedPhase } from "./imported-phase.ts";
import { IMPORT_LIMITS, ImportFileError, shownValue, type ToolImport } from "./tool-import.ts";

/**
 * s3bench's printed results (igneous-systems/s3bench, s3bench.go): its "Test parameters" block
 * (Params.String) and one "Results Summary for <Write|Read> Operation(s)" block per operation
 * (Result.String), with every other line it prints (progress, verbose completions, cleanup)
 * passed over:
 *
 *   Results Summary for Write Operation(s)
 *   Total Transferred: 2.500 MB          (MiB, %0.3f)
 *   Total Throughput:  30.39 MB/s        (%0.2f)
 *   Total Duration:    0.082 s           (%0.3f)
 *   Number of Errors:  0
 *   ------------------------------------
 *   Write times Max:       0.021 s       (then 99th, 90th, 75th, 50th, 25th %ile and Min)
 *
 * The times block is absent when no request succeeded. Older versions name the times "Put".
 */

export const S3BENCH_SUMMARY_START = "Results Summary for ";

const OPERATIONS: Record<string, Operation> = { Write: "PUT", Read: "GET" };

/** s3bench's times lines, in the order it prints them, and the figure each is. */
const TIMES: readonly [label: string, figure: ToolLatencyFigure][] = [
  ["Max", "max"],
  ["99th %ile", "p99"],
  ["90th %ile", "p90"],
  ["75th %ile", "p75"],
  ["50th %ile", "p50"],
  ["25th %ile", "p25"],
  ["Min", "min"],
];

const BYTES_PER_MIB = 1024 * 1024;

/** s3bench counts errors without saying what they were. */
const UNKNOWN_ERROR = "Unknown";

const NOT_CARRIED = [
  "per-request data: the latencies are s3bench's printed figures (to the ms; its percentile is the duration at rank ⌊q·n⌋ of the sorted successes), so p99.9, p99.99, mean and spread are not known",
  "when it ran: s3bench prints no time, so the run is dated by the file's last change",
  "time to first byte, client queue, connect, upload and transfer times",
  "errors by code: s3bench counts errors without their codes",
  "bytes to the KiB: s3bench prints MB to three decimals",
  "the machine s3bench ran on and the server's name",
];

interface Parameters {
  endpoints: string[];
  objectSizeBytes: number;
  clients: number;
  samples: number;
}

export function readS3benchText(text: string): ToolImport {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  let parameters: Parameters | null = null;
  const summaries: { op: Operation; line: number; totals: SummaryTotals; times: ToolLatencyMs }[] =
    [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (line.length > IMPORT_LIMITS.lineChars) {
      throw new ImportFileError(
        `line ${index + 1}: longer than ${IMPORT_LIMITS.lineChars} characters`,
      );
    }
    if (line === "Test parameters") {
      parameters = readParameters(lines, index);
    } else if (line.startsWith(S3BENCH_SUMMARY_START)) {
      if (summaries.length >= IMPORT_LIMITS.phases) {
        throw new ImportFileError(
          `line ${index + 1}: more than ${IMPORT_LIMITS.phases} result blocks`,
        );
      }
      summaries.push(readSummary(lines, index));
    }
  }
  if (!parameters) {
    throw new ImportFileError(`line 1: no "Test parameters" block; expected s3bench's output`);
  }
  if (summaries.length === 0) {
    throw new ImportFileError(
      `line 1: no "${S3BENCH_SUMMARY_START}…" block; expected s3bench's output`,
    );
  }
  const samples = parameters.samples;
  const phases: ImportedPhase[] = summaries.map(({ op, line, totals, times }) => {
    if (totals.errors > samples) {
      throw new ImportFileError(
        `line ${line}, field "Number of Errors": ${totals.errors} is more than numSamples (${samples})`,
      );
    }
    const phase = phaseOfToolFigures(
      op,
      {
        requests: samples,
        errors: totals.errors,
        errorsByCode: totals.errors > 0 ? { [UNKNOWN_ERROR]: totals.errors } : {},
        bytes: Math.round(totals.transferredMiB * BYTES_PER_MIB),
        durationMs: totals.durationMs,
      },
      times,
    );
    // s3bench's own throughput, printed from its unrounded duration.
    return { ...phase, summary: { ...phase.summary, throughputMBps: totals.throughputMBps } };
  });
  return {
    tool: "s3bench",
    startedAt: null,
    finishedAt: null,
    endpoints: parameters.endpoints,
    command: null,
    points: [
      {
        clients: parameters.clients,
        objectSizeBytes: parameters.objectSizeBytes,
        phases,
      },
    ],
    notCarried: NOT_CARRIED,
  };
}

/** The "Test parameters" block starting at `start` (Params.String). */
function readParameters(lines: readonly string[], start: number): Parameters {
  const value = (offset: number, label: string): { text: string; where: string } => {
    const line = lines[start + offset] ?? "";
    const where = `line ${start + offset + 1}, field "${label}"`;
    if (!line.startsWith(`${label}:`)) {
      throw new ImportFileError(`${where}: missing; expected s3bench's "${label}:" line`);
    }
    return { text: line.slice(label.length + 1).trim(), where };
  };
  const endpoints = value(1, "endpoint(s)");
  if (!/^\[.*\]$/.test(endpoints.text)) {
    throw new ImportFileError(
      `${endpoints.where}: ${shownValue(endpoints.text)} is not a list in [ ]`,
    );
  }
  const size = value(4, "objectSize");
  const sizeMiB = /^(\d+\.\d{4}) MB$/.exec(size.text);
  const objectSizeBytes = sizeMiB ? Math.round(Number(sizeMiB[1]) * BYTES_PER_MIB) : 0;
  if (objectSizeBytes < 1) {
    throw new ImportFileError(
      `${size.where}: ${shownValue(size.text)} is not a size in MB (e.g. 0.0625 MB)`,
    );
  }
  return {
    endpoints: endpoints.text
      .slice(1, -1)
      .split(" ")
      .filter((url) => url !== ""),
    objectSizeBytes,
    clients: positiveCount(value(5, "numClients")),
    samples: positiveCount(value(6, "numSamples")),
  };
}

interface SummaryTotals {
  transferredMiB: number;
  throughputMBps: number;
  durationMs: number;
  errors: number;
}

/** A "Results Summary" block starting at `start` (Result.String). */
function readSummary(
  lines: readonly string[],
  start: number,
): { op: Operation; line: number; totals: SummaryTotals; times: ToolLatencyMs } {
  const heading = lines[start] as string;
  const name = /^Results Summary for (\w+) Operation\(s\)$/.exec(heading)?.[1] ?? "";
  const op = OPERATIONS[name];
  if (!op) {
    throw new ImportFileError(
      `line ${start + 1}: ${shownValue(heading)} names no operation s3bench runs; expected Write or Read`,
    );
  }
  const figure = (offset: number, label: string, unit: string): number => {
    const line = lines[start + offset] ?? "";
    const where = `line ${start + offset + 1}, field "${label}"`;
    const match = new RegExp(
      `^${escaped(label)}:\\s+(\\d+(?:\\.\\d+)?)${unit ? ` ${escaped(unit)}` : ""}$`,
    ).exec(line);
    if (!match) {
      throw new ImportFileError(
        `${where}: ${shownValue(line)} is not s3bench's "${label}: <number>${unit ? ` ${unit}` : ""}" line`,
      );
    }
    return Number(match[1]);
  };
  const totals: SummaryTotals = {
    transferredMiB: figure(1, "Total Transferred", "MB"),
    throughputMBps: figure(2, "Total Throughput", "MB/s"),
    durationMs: Math.round(figure(3, "Total Duration", "s") * 1000),
    errors: wholeFigure(figure(4, "Number of Errors", ""), start + 5, "Number of Errors"),
  };
  const times: ToolLatencyMs = {};
  if (lines[start + 5]?.startsWith("---")) {
    TIMES.forEach(([label, name], at) => {
      const line = lines[start + 6 + at] ?? "";
      const match = new RegExp(`^\\w+ times ${escaped(label)}:\\s+(\\d+\\.\\d+) s$`).exec(line);
      if (!match) {
        throw new ImportFileError(
          `line ${start + 7 + at}, field "${label}": ${shownValue(line)} is not s3bench's "<op> times ${label}: <seconds> s" line`,
        );
      }
      times[name] = Math.round(Number(match[1]) * 1e6) / 1000;
    });
  }
  return { op, line: start + 5, totals, times };
}

function positiveCount({ text, where }: { text: string; where: string }): number {
  const count = /^\d{1,9}$/.test(text) ? Number(text) : 0;
  if (count < 1)
    throw new ImportFileError(`${where}: ${shownValue(text)} is not a count of at least 1`);
  return count;
}

function wholeFigure(value: number, line: number, label: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new ImportFileError(`line ${line}, field "${label}": ${value} is not a whole number`);
  }
  return value;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\%/]/g, "\\$&");
}
