import type { ToolLatencyMs } from "@taillab/api";
import { phaseOfToolFigures, type ImportedPhase } from "./imported-phase.ts";
import { IMPORT_LIMITS, ImportFileError, shownValue, type ToolImport } from "./tool-import.ts";
import { WARP_OPERATIONS } from "./warp-csv-import.ts";

/**
 * warp's aggregate results (`NAME.json.zst`, once decompressed): the final `aggregate.Realtime`
 * (pkg/aggregate/live.go) as encoding/json writes it: "v", "commandline", "final" and, per
 * operation in "by_op_type", a LiveAggregate with total_requests, total_errors, concurrency,
 * hosts, "throughput" (bytes, measure_duration_millis) and "requests_by_client": per client,
 * segments of a few seconds each, whose "single_sized_requests" hold that segment's
 * percentiles. warp prints a run's figures by summing its segments' averages, medians, 90th
 * and 99th percentiles and spreads and dividing by their count (SingleSizedRequests.add and
 * StringByN), fastest and slowest being the extremes: those are the figures kept here, as warp
 * prints them.
 */

/** What tells warp's aggregate from other JSON. */
export const WARP_JSON_KEYS = ['"commandline"', '"by_op_type"'] as const;

const NOT_CARRIED = [
  "per-request data: warp's aggregate keeps each few-second segment's percentiles, and warp's figures are their averages over segments (not percentiles of the whole run), so p99.9 and p99.99 are not known; its .csv.zst keeps every request",
  "bytes: warp's aggregate counts the size of failed requests too",
  "errors by code: the aggregate keeps only its first errors' messages",
  "client queue, connect, upload and transfer times",
  "the machine warp ran on and the server's name",
];

/** The most segments read over every client and operation. */
const MAX_SEGMENTS = 1_000_000;

export function readWarpJson(text: string): ToolImport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(`it is not valid JSON (${(error as Error).message})`);
  }
  const report = objectAt(parsed, "");
  if (typeof report.v !== "number" || typeof report.commandline !== "string") {
    throw new ImportFileError(`field "v": missing; expected warp's aggregate (.json.zst) results`);
  }
  if (report.final !== true) {
    throw new ImportFileError(`field "final": not true; warp writes a final aggregate at its end`);
  }
  const byOperation = Object.entries(objectAt(report.by_op_type, "by_op_type"));
  if (byOperation.length === 0 || byOperation.length > IMPORT_LIMITS.phases) {
    throw new ImportFileError(
      `field "by_op_type": ${byOperation.length} operations; expected 1 to ${IMPORT_LIMITS.phases}`,
    );
  }
  let startMs = Number.POSITIVE_INFINITY;
  let endMs = Number.NEGATIVE_INFINITY;
  let clients = 1;
  let segmentCount = 0;
  let objectSizeBytes = 0;
  const hosts = new Set<string>();
  const notes = new Set<string>();
  const phases: ImportedPhase[] = byOperation.map(([name, value]) => {
    const where = `by_op_type.${name}`;
    const op = WARP_OPERATIONS[name];
    if (!op) {
      throw new ImportFileError(
        `field "by_op_type": ${shownValue(name)} is not an operation TailLab compares; expected one of ${Object.keys(WARP_OPERATIONS).join(", ")}`,
      );
    }
    const aggregate = objectAt(value, where);
    const throughput = objectAt(aggregate.throughput, `${where}.throughput`);
    startMs = Math.min(startMs, timeAt(aggregate, "start_time", where));
    endMs = Math.max(endMs, timeAt(aggregate, "end_time", where));
    clients = Math.max(clients, wholeAt(aggregate, "concurrency", where));
    for (const host of stringsAt(aggregate, "hosts", where)) {
      if (hosts.size < IMPORT_LIMITS.endpoints) hosts.add(host);
    }
    const requests = wholeAt(aggregate, "total_requests", where);
    const errors = wholeAt(aggregate, "total_errors", where);
    if (errors > requests) {
      throw new ImportFileError(
        `field "${where}.total_errors": ${errors} is more than total_requests (${requests})`,
      );
    }
    const segments = segmentsOf(aggregate.requests_by_client, `${where}.requests_by_client`);
    segmentCount += segments.length;
    if (segmentCount > MAX_SEGMENTS) {
      throw new ImportFileError(
        `field "${where}.requests_by_client": more than ${MAX_SEGMENTS} segments`,
      );
    }
    objectSizeBytes ||=
      segments.find((segment) => segment.objectSizeBytes > 0)?.objectSizeBytes ?? 0;
    if (segments.some((segment) => segment.multi)) {
      notes.add(
        "latency of runs with several object sizes: warp keeps it per size range, which is not read",
      );
    }
    return phaseOfToolFigures(
      op,
      {
        requests,
        errors,
        errorsByCode: errors > 0 ? { Unknown: errors } : {},
        bytes: Math.round(numberAt(throughput, "bytes", `${where}.throughput`)),
        durationMs: wholeAt(throughput, "measure_duration_millis", `${where}.throughput`),
      },
      warpPrintedFigures(segments.flatMap((segment) => (segment.single ? [segment.single] : []))),
    );
  });
  return {
    tool: "warp",
    startedAt: new Date(startMs).toISOString(),
    finishedAt: new Date(endMs).toISOString(),
    endpoints: [...hosts],
    command: report.commandline,
    points: [
      {
        clients,
        objectSizeBytes: Math.max(1, objectSizeBytes),
        phases,
      },
    ],
    notCarried: [
      ...NOT_CARRIED,
      ...(objectSizeBytes > 0
        ? []
        : ["object size: no segment of the aggregate names one (1 byte shown)"]),
      ...notes,
    ],
  };
}

interface SegmentFigures {
  avg: number;
  median: number;
  p90: number;
  p99: number;
  fastest: number;
  slowest: number;
  stdev: number;
}

/** SingleSizedRequests.add then StringByN: sums over segments divided by their count. */
function warpPrintedFigures(segments: readonly SegmentFigures[]): ToolLatencyMs {
  if (segments.length === 0) return {};
  const mean = (pick: (segment: SegmentFigures) => number) =>
    round3(segments.reduce((sum, segment) => sum + pick(segment), 0) / segments.length);
  return {
    mean: mean((segment) => segment.avg),
    p50: mean((segment) => segment.median),
    p90: mean((segment) => segment.p90),
    p99: mean((segment) => segment.p99),
    min: round3(Math.min(...segments.map((segment) => segment.fastest))),
    max: round3(Math.max(...segments.map((segment) => segment.slowest))),
    stdev: mean((segment) => segment.stdev),
  };
}

function segmentsOf(
  value: unknown,
  where: string,
): { single: SegmentFigures | null; multi: boolean; objectSizeBytes: number }[] {
  if (value === undefined || value === null) return [];
  return Object.entries(objectAt(value, where)).flatMap(([client, list]) => {
    if (!Array.isArray(list))
      throw new ImportFileError(`field "${where}.${client}": expected a list of segments`);
    if (list.length > MAX_SEGMENTS)
      throw new ImportFileError(`field "${where}.${client}": too many segments`);
    return list.map((item: unknown, index) => {
      const at = `${where}.${client}[${index}]`;
      const segment = objectAt(item, at);
      const single =
        segment.single_sized_requests === undefined
          ? null
          : objectAt(segment.single_sized_requests, `${at}.single_sized_requests`);
      const figuresAt = `${at}.single_sized_requests`;
      return {
        multi: segment.multi_sized_requests !== undefined,
        objectSizeBytes: single === null ? 0 : Math.round(numberAt(single, "obj_size", figuresAt)),
        single:
          single === null || single.skipped === true
            ? null
            : {
                avg: numberAt(single, "dur_avg_millis", figuresAt),
                median: numberAt(single, "dur_median_millis", figuresAt),
                p90: numberAt(single, "dur_90_millis", figuresAt),
                p99: numberAt(single, "dur_99_millis", figuresAt),
                fastest: numberAt(single, "fastest_millis", figuresAt),
                slowest: numberAt(single, "slowest_millis", figuresAt),
                stdev: numberAt(single, "std_dev_millis", figuresAt),
              },
      };
    });
  });
}

function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ImportFileError(
      where === "" ? "it is not a JSON object" : `field "${where}": expected an object`,
    );
  }
  return value as Record<string, unknown>;
}

function numberAt(object: Record<string, unknown>, field: string, where: string): number {
  const value = object[field];
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ImportFileError(`field "${where}.${field}": expected a number of at least 0`);
  }
  return value;
}

function wholeAt(object: Record<string, unknown>, field: string, where: string): number {
  const value = numberAt(object, field, where);
  if (!Number.isSafeInteger(value)) {
    throw new ImportFileError(`field "${where}.${field}": expected a whole number`);
  }
  return value;
}

function timeAt(object: Record<string, unknown>, field: string, where: string): number {
  const value = object[field];
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new ImportFileError(`field "${where}.${field}": expected a time (RFC 3339)`);
  }
  return ms;
}

function stringsAt(object: Record<string, unknown>, field: string, where: string): string[] {
  const value = object[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new ImportFileError(`field "${where}.${field}": expected a list of names`);
  }
  return value as string[];
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
