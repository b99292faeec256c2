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
 * elbencho's results files. `--jsonfile` (source/Statistics.cpp, printPhaseResultsAsJSON): each
 * phase appends one JSON object, written by boost's property tree (every value a string, "/" escaped), with
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

/** One phase as either of elbencho's results files has it. */
interface ElbenchoPhase {
  line: number;
  op: Operation;
  startMs: number;
  clients: number;
  objectSizeBytes: number;
  durationMs: number;
  requests: number;
  bytes: number;
  /** Per object ("entries"), µs; null when elbencho ran without --lat. */
  latencyUs: { min: number; avg: number; max: number } | null;
  command: string | null;
}

export function readElbenchoJson(text: string): ToolImport {
  const objects = concatenatedObjects(text);
  if (objects.length === 0) {
    throw new ImportFileError("line 1: no phase; expected elbencho's --jsonfile results");
  }
  return elbenchoImport(
    objects.map(({ line, value }) => {
      const phase = objectAt(value, "", line);
      const config = objectAt(phase.config, "config", line);
      const done = objectAt(phase.last_done, "last_done", line);
      const where = (field: string) => `line ${line}, field "${field}"`;
      const latency =
        done.latency === undefined ? null : objectAt(done.latency, "last_done.latency", line);
      const entries =
        latency?.entries === undefined
          ? null
          : objectAt(latency.entries, "last_done.latency.entries", line);
      const entryUs = (field: string) =>
        microseconds(entries?.[field], where(`last_done.latency.entries.${field}`));
      return {
        line,
        op: operationOf(phase.phase_type, where("phase_type")),
        startMs: isoStartMs(phase.iso_start_date, where("iso_start_date")),
        clients:
          count(config.threads, where("config.threads"), 1) *
          count(config.hosts, where("config.hosts"), 1),
        objectSizeBytes: Math.max(1, count(config.file_size, where("config.file_size"), 0)),
        durationMs: count(done.elapsed_time_ms, where("last_done.elapsed_time_ms"), 0),
        requests:
          done.entries === undefined ? 0 : count(done.entries, where("last_done.entries"), 0),
        bytes: done.bytes === undefined ? 0 : count(done.bytes, where("last_done.bytes"), 0),
        latencyUs: entries
          ? { min: entryUs("min_us"), avg: entryUs("avg_us"), max: entryUs("max_us") }
          : null,
        command: typeof config.command === "string" ? config.command.trim() : null,
      };
    }),
    [],
  );
}

export const ELBENCHO_CSV_START = "ISO date,";

/**
 * elbencho's `--csvfile` (Statistics.cpp: a labels line when the file was empty, then one line
 * per phase of printPhaseStartISODateToStringVec, ProgArgs::getAsStringVec and
 * printPhaseResultsToStringVec, joined by commas; the label and command have their commas
 * taken out), read by column name. It keeps MiB, not bytes.
 */
export function readElbenchoCsv(text: string): ToolImport {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const labels = (lines[0] ?? "").split(",");
  const columns = new Map(labels.map((label, index) => [label, index]));
  for (const label of ["operation", "threads", "hosts", "file size", "time ms [last]"]) {
    if (!columns.has(label)) {
      throw new ImportFileError(
        `line 1: no "${label}" column; expected elbencho's --csvfile labels`,
      );
    }
  }
  const phases: ElbenchoPhase[] = [];
  lines.slice(1).forEach((text, index) => {
    const line = index + 2;
    if (text === "") return;
    if (text.length > IMPORT_LIMITS.lineChars) {
      throw new ImportFileError(`line ${line}: longer than ${IMPORT_LIMITS.lineChars} characters`);
    }
    const values = text.split(",");
    if (values.length !== labels.length) {
      throw new ImportFileError(
        `line ${line}: ${values.length} fields; expected ${labels.length}, one per label`,
      );
    }
    const value = (label: string) => {
      const at = columns.get(label);
      return at === undefined ? "" : (values[at] as string);
    };
    const where = (label: string) => `line ${line}, field "${label}"`;
    const optional = (label: string) =>
      value(label) === "" ? 0 : count(value(label), where(label), 0);
    const entryUs = (kind: string) =>
      microseconds(value(`Ent lat us [${kind}]`), where(`Ent lat us [${kind}]`));
    phases.push({
      line,
      op: operationOf(value("operation"), where("operation")),
      startMs: isoStartMs(value("ISO date"), where("ISO date")),
      clients:
        count(value("threads"), where("threads"), 1) * count(value("hosts"), where("hosts"), 1),
      objectSizeBytes: Math.max(1, count(value("file size"), where("file size"), 0)),
      durationMs: count(value("time ms [last]"), where("time ms [last]"), 0),
      requests: optional("entries [last]"),
      bytes: optional("MiB [last]") * BYTES_PER_MIB,
      latencyUs:
        value("Ent lat us [min]") === ""
          ? null
          : { min: entryUs("min"), avg: entryUs("avg"), max: entryUs("max") },
      command: value("command").trim() || null,
    });
  });
  if (phases.length === 0) {
    throw new ImportFileError("line 2: no phase after the labels; expected elbencho's --csvfile");
  }
  return elbenchoImport(phases, ["bytes to the MiB: elbencho's CSV keeps whole MiB"]);
}

const BYTES_PER_MIB = 1024 * 1024;

/** Phases with the same threads and object size, until an operation repeats, make one point. */
function elbenchoImport(phases: readonly ElbenchoPhase[], formatNotes: string[]): ToolImport {
  if (phases.length > IMPORT_LIMITS.phases * 16) {
    throw new ImportFileError(`line ${phases.at(-1)?.line ?? 1}: more phases than an import reads`);
  }
  const points: ImportedPoint[] = [];
  const notes = new Set<string>(formatNotes);
  for (const phase of phases) {
    if (!phase.latencyUs)
      notes.add("latency: a phase has none (elbencho writes it with --lat only)");
    const toolLatencyMs: ToolLatencyMs = phase.latencyUs
      ? {
          min: phase.latencyUs.min / 1000,
          mean: phase.latencyUs.avg / 1000,
          max: phase.latencyUs.max / 1000,
        }
      : {};
    const imported = phaseOfToolFigures(
      phase.op,
      {
        requests: phase.requests,
        errors: 0,
        errorsByCode: {},
        bytes: phase.bytes,
        durationMs: phase.durationMs,
      },
      toolLatencyMs,
    );
    const last = points.at(-1);
    const samePoint =
      last?.clients === phase.clients &&
      last.objectSizeBytes === phase.objectSizeBytes &&
      !last.phases.some((each) => each.summary.op === phase.op);
    if (samePoint) {
      last.phases.push(imported);
    } else {
      if (points.length >= IMPORT_LIMITS.phases) {
        throw new ImportFileError(`line ${phase.line}: more than ${IMPORT_LIMITS.phases} points`);
      }
      points.push({
        clients: phase.clients,
        objectSizeBytes: phase.objectSizeBytes,
        phases: [imported],
      });
    }
  }
  const first = phases[0] as ElbenchoPhase;
  return {
    tool: "elbencho",
    startedAt: new Date(first.startMs).toISOString(),
    finishedAt: new Date(
      Math.max(...phases.map((phase) => phase.startMs + phase.durationMs)),
    ).toISOString(),
    endpoints: [],
    command: phases.find((phase) => phase.command !== null)?.command ?? null,
    points,
    notCarried: [...NOT_CARRIED, ...notes],
  };
}

function operationOf(name: unknown, where: string): Operation {
  const op = typeof name === "string" ? ELBENCHO_OPERATIONS[name] : undefined;
  if (!op) {
    throw new ImportFileError(
      `${where}: ${shownValue(String(name))} is not an operation TailLab compares; expected one of ${Object.keys(ELBENCHO_OPERATIONS).join(", ")}`,
    );
  }
  return op;
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

/** Both files write numbers as text (boost's JSON writes every value as a string). */
function count(text: unknown, where: string, least: number): number {
  const value = typeof text === "string" && /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= least)) {
    throw new ImportFileError(
      `${where}: ${shownValue(String(text))} is not a whole number of at least ${least}`,
    );
  }
  return value;
}

function microseconds(text: unknown, where: string): number {
  const value =
    typeof text === "string" && /^\d{1,12}(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(value)) {
    throw new ImportFileError(`${where}: ${shownValue(String(text))} is not a time in µs`);
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
