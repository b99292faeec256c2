import type { Operation, ToolLatencyMs } from "@taillab/api";
import { phaseOfToolFigures } from "./imported-phase.ts";
import {
  IMPORT_LIMITS,
  ImportFileError,
  shownValue,
  type ImportedPoint,
  type ToolImport,
} from "./tool-import.ts";

/**
 * elbencho's `--jsonfile` (source/Statistics.cpp, printPhaseResultsAsJSON): each phase appends
 * one JSON object, written by boost's property tree (every value a string, "/" escaped), with
 * "phase_type", "iso_start_date" (`2025-03-14T09:26:53.589+0100`), "config" (threads, hosts,
 * file_size, block_size, version, command with its S3 secret left out) and "last_done" (when
 * the last thread finished: elapsed_time_ms, entries, bytes, and with --lat the "latency" of
 * "entries" and "IO" as min_us, avg_us and max_us; the histogram only with --lathisto, in
 * buckets far coarser than TailLab's, so it is not read). Phases with the same threads and
 * object size, until an operation repeats, make one point.
 */

export const ELBENCHO_JSON_START = '{"phase_type":';

const ELBENCHO_OPERATIONS: Record<string, Operation> = {
  WRITE: "PUT",
  READ: "GET",
  HEADOBJ: "HEAD",
  RMOBJECTS: "DELETE",
  MULTIDEL: "DELETE_OBJECTS",
  LISTOBJ: "LIST",
  LISTOBJ_P: "LIST",
  MKBUCKETS: "CREATE_BUCKET",
  RMBUCKETS: "DELETE_BUCKET",
};

const NOT_CARRIED = [
  "percentiles: elbencho's results file keeps each operation's minimum, mean and maximum latency only (per object: its \"entries\" latency)",
  "errors: elbencho stops at its first error rather than counting them",
  "time to first byte, client queue, connect, upload and transfer times",
  "the machine elbencho ran on and the server's name",
];

export function readElbenchoJson(text: string): ToolImport {
  const objects = concatenatedObjects(text);
  if (objects.length === 0) {
    throw new ImportFileError("line 1: no phase; expected elbencho's --jsonfile results");
  }
  const points: ImportedPoint[] = [];
  let startedAt: string | null = null;
  let finishedMs = Number.NEGATIVE_INFINITY;
  let command: string | null = null;
  const notes = new Set<string>();
  for (const { line, value } of objects) {
    const where = (field: string) => `line ${line}, field "${field}"`;
    const phase = objectAt(value, "", line);
    const name = phase.phase_type;
    const op = typeof name === "string" ? ELBENCHO_OPERATIONS[name] : undefined;
    if (!op) {
      throw new ImportFileError(
        `${where("phase_type")}: ${shownValue(String(name))} is not an operation TailLab compares; expected one of ${Object.keys(ELBENCHO_OPERATIONS).join(", ")}`,
      );
    }
    const startMs = isoStartMs(phase.iso_start_date, where("iso_start_date"));
    startedAt ??= new Date(startMs).toISOString();
    const config = objectAt(phase.config, "config", line);
    const done = objectAt(phase.last_done, "last_done", line);
    const threads = count(config, "threads", "config", line, 1);
    const hosts = count(config, "hosts", "config", line, 1);
    const objectSizeBytes = Math.max(1, count(config, "file_size", "config", line, 0));
    const durationMs = count(done, "elapsed_time_ms", "last_done", line, 0);
    finishedMs = Math.max(finishedMs, startMs + durationMs);
    if (typeof config.command === "string") command ??= config.command.trim();
    const latency =
      done.latency === undefined ? null : objectAt(done.latency, "last_done.latency", line);
    const entries =
      latency?.entries === undefined
        ? null
        : objectAt(latency.entries, "last_done.latency.entries", line);
    if (!entries) notes.add("latency: a phase has none (elbencho writes it with --lat only)");
    const toolLatencyMs: ToolLatencyMs = entries
      ? {
          min: microseconds(entries, "min_us", line) / 1000,
          mean: microseconds(entries, "avg_us", line) / 1000,
          max: microseconds(entries, "max_us", line) / 1000,
        }
      : {};
    const imported = phaseOfToolFigures(
      op,
      {
        requests: done.entries === undefined ? 0 : count(done, "entries", "last_done", line, 0),
        errors: 0,
        errorsByCode: {},
        bytes: done.bytes === undefined ? 0 : count(done, "bytes", "last_done", line, 0),
        durationMs,
      },
      toolLatencyMs,
    );
    const clients = threads * hosts;
    const last = points.at(-1);
    const samePoint =
      last?.clients === clients &&
      last.objectSizeBytes === objectSizeBytes &&
      !last.phases.some((each) => each.summary.op === op);
    if (samePoint) {
      last.phases.push(imported);
    } else {
      if (points.length >= IMPORT_LIMITS.phases) {
        throw new ImportFileError(`line ${line}: more than ${IMPORT_LIMITS.phases} points`);
      }
      points.push({ clients, objectSizeBytes, phases: [imported] });
    }
  }
  return {
    tool: "elbencho",
    startedAt,
    finishedAt: new Date(finishedMs).toISOString(),
    endpoints: [],
    command,
    points,
    notCarried: [...NOT_CARRIED, ...notes],
  };
}

/** The JSON objects written one after another, each with the line it starts on. */
function concatenatedObjects(text: string): { line: number; value: unknown }[] {
  const objects: { line: number; value: unknown }[] = [];
  let line = 1;
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === "\n") line += 1;
    if (/\s/.test(char)) {
      at += 1;
      continue;
    }
    if (char !== "{")
      throw new ImportFileError(`line ${line}: expected a JSON object, found ${shownValue(char)}`);
    const end = objectEnd(text, at, line);
    try {
      objects.push({ line, value: JSON.parse(text.slice(at, end)) });
    } catch (error) {
      throw new ImportFileError(`line ${line}: not valid JSON (${(error as Error).message})`);
    }
    if (objects.length > IMPORT_LIMITS.phases * 16) {
      throw new ImportFileError(`line ${line}: more phases than an import reads`);
    }
    line += text.slice(at, end).split("\n").length - 1;
    at = end;
  }
  return objects;
}

/** The index just past the object that opens at `from` (braces counted outside strings). */
function objectEnd(text: string, from: number, line: number): number {
  let depth = 0;
  let inString = false;
  for (let at = from; at < text.length; at += 1) {
    const char = text[at];
    if (inString) {
      if (char === "\\") at += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === "{") {
      depth += 1;
    } else if (char === "}") {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  throw new ImportFileError(
    `line ${line}: a JSON object that never closes (the file is cut short)`,
  );
}

function objectAt(value: unknown, field: string, line: number): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ImportFileError(
      field === ""
        ? `line ${line}: not a JSON object`
        : `line ${line}, field "${field}": expected an object`,
    );
  }
  return value as Record<string, unknown>;
}

/** boost writes every number as a string. */
function count(
  object: Record<string, unknown>,
  field: string,
  parent: string,
  line: number,
  least: number,
): number {
  const text = object[field];
  const value = typeof text === "string" && /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= least)) {
    throw new ImportFileError(
      `line ${line}, field "${parent}.${field}": ${shownValue(String(text))} is not a whole number of at least ${least}`,
    );
  }
  return value;
}

function microseconds(object: Record<string, unknown>, field: string, line: number): number {
  const text = object[field];
  const value =
    typeof text === "string" && /^\d{1,12}(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(value)) {
    throw new ImportFileError(
      `line ${line}, field "last_done.latency.entries.${field}": ${shownValue(String(text))} is not a time in µs`,
    );
  }
  return value;
}

/** `%FT%T.mmm%z`, as elbencho writes its local start time. */
function isoStartMs(text: unknown, where: string): number {
  const match =
    typeof text === "string"
      ? /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})([+-]\d{2})(\d{2})$/.exec(text)
      : null;
  const ms = match ? Date.parse(`${match[1]}${match[2]}:${match[3]}`) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new ImportFileError(
      `${where}: ${shownValue(String(text))} is not a time as elbencho writes it (e.g. 2025-03-14T09:26:53.589+0100)`,
    );
  }
  return ms;
}
