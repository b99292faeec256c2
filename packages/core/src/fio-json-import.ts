import type { Operation } from "@taillab/api";
import { phaseOfLatencyBins, type ImportedPhase } from "./imported-phase.ts";
import {
  IMPORT_LIMITS,
  ImportFileError,
  shownValue,
  type ImportedPoint,
  type ToolImport,
} from "./tool-import.ts";

/**
 * fio's `--output-format=json+` (stat.c: show_thread_status_json, add_ddir_status_json): a JSON
 * object with "fio version", "timestamp_ms" (when the report was written) and "jobs"; each job
 * has its "jobname", "error", "job options" and one object per data direction ("read",
 * "write", "trim") with io_bytes, runtime (ms), total_ios and clat_ns, whose "bins" (json+
 * only) map each latency bucket's value (ns) to the I/Os that fell in it. Each job is a point;
 * each direction with I/Os an operation of it, its percentiles computed here from the bins.
 */

const DIRECTIONS: readonly [direction: string, op: Operation][] = [
  ["write", "PUT"],
  ["read", "GET"],
  ["trim", "DELETE"],
];

const NOT_CARRIED = [
  "submission latency: the latency shown is fio's completion latency (clat), from its json+ bins (about 1.6 % wide)",
  "errors: fio reports a job's first error (its errno) but does not count failed I/Os",
  "time to first byte, client queue, connect, upload and transfer times",
  "when it ran: fio dates its report when written, so the run is shown ending then and starting a job's runtime before",
  "clients: each fio job is shown as one client (its iodepth is not a client count)",
  "the machine fio ran on",
];

export function readFioJson(text: string): ToolImport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(`it is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ImportFileError(
      "it is not a JSON object; expected fio's --output-format=json+ report",
    );
  }
  const report = parsed as Record<string, unknown>;
  if (typeof report["fio version"] !== "string") {
    throw new ImportFileError(
      `field "fio version": missing; expected fio's --output-format=json+ report`,
    );
  }
  const writtenMs = wholeAt(report, "timestamp_ms", "");
  const jobs = report.jobs;
  if (!Array.isArray(jobs) || jobs.length === 0) {
    throw new ImportFileError(`field "jobs": expected a list of at least one job`);
  }
  if (jobs.length > IMPORT_LIMITS.phases) {
    throw new ImportFileError(
      `field "jobs": ${jobs.length} jobs; an import reads at most ${IMPORT_LIMITS.phases}`,
    );
  }
  const notes: string[] = [];
  let longestMs = 0;
  const points: ImportedPoint[] = jobs.map((value, index) => {
    const where = `jobs[${index}]`;
    const job = objectAt(value, where);
    const name = job.jobname;
    if (typeof name !== "string")
      throw new ImportFileError(`field "${where}.jobname": expected a string`);
    const error = wholeAt(job, "error", where);
    if (error !== 0)
      notes.push(
        `job "${name}" ended with error ${error} (errno): fio does not count its failed I/Os`,
      );
    const phases: ImportedPhase[] = [];
    let objectSizeBytes = 0;
    for (const [direction, op] of DIRECTIONS) {
      const stats = objectAt(job[direction], `${where}.${direction}`);
      const at = `${where}.${direction}`;
      const requests = wholeAt(stats, "total_ios", at);
      if (requests === 0) continue;
      const bytes = wholeAt(stats, "io_bytes", at);
      const durationMs = wholeAt(stats, "runtime", at);
      longestMs = Math.max(longestMs, durationMs);
      objectSizeBytes ||= Math.max(1, Math.round(bytes / requests));
      const bins = latencyBins(objectAt(stats.clat_ns, `${at}.clat_ns`), `${at}.clat_ns.bins`);
      const binned = bins.reduce((sum, [, count]) => sum + count, 0);
      if (binned > requests) {
        throw new ImportFileError(
          `field "${at}.clat_ns.bins": ${binned} I/Os in the bins, more than total_ios (${requests})`,
        );
      }
      phases.push(
        phaseOfLatencyBins(op, { requests, errors: 0, errorsByCode: {}, bytes, durationMs }, bins),
      );
    }
    if (phases.length === 0) throw new ImportFileError(`field "${where}": the job did no I/O`);
    return { clients: 1, objectSizeBytes, phases };
  });
  return {
    tool: "fio",
    startedAt: new Date(writtenMs - longestMs).toISOString(),
    finishedAt: new Date(writtenMs).toISOString(),
    endpoints: [],
    command: null,
    points,
    notCarried: [...NOT_CARRIED, ...notes],
  };
}

/** clat_ns.bins: latency (ns) → count, as µs; only json+ writes them. */
function latencyBins(clat: Record<string, unknown>, where: string): [number, number][] {
  const bins = clat.bins;
  if (bins === undefined) {
    throw new ImportFileError(
      `field "${where}": missing; expected fio's --output-format=json+ (plain json keeps no bins)`,
    );
  }
  const entries = Object.entries(objectAt(bins, where));
  if (entries.length > IMPORT_LIMITS.bins) {
    throw new ImportFileError(
      `field "${where}": ${entries.length} bins; fio writes at most ${IMPORT_LIMITS.bins}`,
    );
  }
  return entries.map(([valueNs, count]) => {
    if (!/^\d{1,15}$/.test(valueNs)) {
      throw new ImportFileError(
        `field "${where}": bin ${shownValue(valueNs)} is not a latency in ns`,
      );
    }
    if (!Number.isSafeInteger(count) || (count as number) < 1) {
      throw new ImportFileError(
        `field "${where}.${valueNs}": expected a whole count of at least 1`,
      );
    }
    return [Number(valueNs) / 1000, count as number];
  });
}

function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ImportFileError(`field "${where}": expected an object`);
  }
  return value as Record<string, unknown>;
}

function wholeAt(object: Record<string, unknown>, field: string, where: string): number {
  const value = object[field];
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    const path = where === "" ? field : `${where}.${field}`;
    throw new ImportFileError(`field "${path}": expected a whole number of at least 0`);
  }
  return value as number;
}
