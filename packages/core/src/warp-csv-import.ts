import type { Operation } from "@taillab/api";
import { phaseOfRequests, type ImportedRequest } from "./imported-phase.ts";
import { IMPORT_LIMITS, ImportFileError, shownValue, type ToolImport } from "./tool-import.ts";

/**
 * warp's per-request results (`warp … --benchdata NAME` writes NAME.csv.zst; this reads it once
 * decompressed), as warp's own writer lays them out (pkg/bench/ops.go, Operations.CSV and
 * Operation.WriteCSV): a header line, then one tab-separated line per request
 *
 *   idx thread op client_id n_objects bytes endpoint file error start first_byte last_byte end
 *   duration_ns cat
 *
 * with RFC 3339 times to the nanosecond (first_byte and last_byte empty where not recorded),
 * fields quoted as CSV quotes them where they hold a quote or a line break (endpoint, error), and
 * the command line last, as `# ` comment lines. Columns are found by name, as warp's reader does.
 */

export const WARP_CSV_HEADER_START = "idx\tthread\top\t";

/** warp's operation names and TailLab's. warp's POST is its upload by a POST policy. */
export const WARP_OPERATIONS: Record<string, Operation> = {
  GET: "GET",
  PUT: "PUT",
  POST: "PUT",
  DELETE: "DELETE",
  STAT: "HEAD",
  LIST: "LIST",
  PUTPART: "UPLOAD_PART",
};

const REQUIRED_COLUMNS = ["thread", "op", "bytes", "error", "start", "first_byte", "end"] as const;

const NOT_CARRIED = [
  "client queue, connect and upload times: warp records a request's start, first byte and end only, so latency is warp's start → end",
  "the tail breakdown (it is made of the times above)",
  "the machine warp ran on and the server's name",
];

export function readWarpCsv(text: string): ToolImport {
  const rows = tabSeparatedRows(text);
  const header = rows.next();
  if (header.done)
    throw new ImportFileError("line 1: the file is empty; expected warp's header line");
  const columns = new Map(header.value.fields.map((name, index) => [name, index]));
  for (const name of REQUIRED_COLUMNS) {
    if (!columns.has(name)) {
      throw new ImportFileError(
        `line 1: no "${name}" column; expected warp's header (${WARP_CSV_HEADER_START.replaceAll("\t", " ")}…)`,
      );
    }
  }
  const byOperation = new Map<Operation, ImportedRequest[]>();
  const clients = new Map<string, number>();
  const sizes = new Map<number, number>();
  const endpoints = new Set<string>();
  let requestCount = 0;
  let firstStartUs = Number.POSITIVE_INFINITY;
  let lastEndUs = Number.NEGATIVE_INFINITY;
  for (const { line, fields } of rows) {
    if (fields.length !== columns.size) {
      throw new ImportFileError(
        `line ${line}: ${fields.length} fields; expected ${columns.size}, one per header column`,
      );
    }
    requestCount += 1;
    if (requestCount > IMPORT_LIMITS.requests) {
      throw new ImportFileError(
        `line ${line}: more than ${IMPORT_LIMITS.requests} requests; an import reads at most that many`,
      );
    }
    const field = (name: string): string => fields[columns.get(name) as number] as string;
    const where = (name: string): string => `line ${line}, field "${name}"`;
    const opName = field("op");
    const op = WARP_OPERATIONS[opName];
    if (!op) {
      throw new ImportFileError(
        `${where("op")}: ${shownValue(opName)} is not an operation TailLab compares; expected one of ${Object.keys(WARP_OPERATIONS).join(", ")}`,
      );
    }
    const thread = wholeNumber(field("thread"), where("thread"));
    const bytes = wholeNumber(field("bytes"), where("bytes"));
    const startUs = epochMicroseconds(field("start"), where("start"));
    const endUs = epochMicroseconds(field("end"), where("end"));
    if (endUs < startUs) {
      throw new ImportFileError(`${where("end")}: before the request's start`);
    }
    const firstByteText = field("first_byte");
    const firstByteUs =
      firstByteText === "" ? null : epochMicroseconds(firstByteText, where("first_byte"));
    if (firstByteUs !== null && (firstByteUs < startUs || firstByteUs > endUs)) {
      throw new ImportFileError(`${where("first_byte")}: not between the request's start and end`);
    }
    if (columns.has("duration_ns")) {
      const durationNs = wholeNumber(field("duration_ns"), where("duration_ns"));
      // warp writes end − start: a duration that disagrees means the line was changed.
      if (Math.abs(durationNs / 1000 - (endUs - startUs)) > 1) {
        throw new ImportFileError(
          `${where("duration_ns")}: ${durationNs} ns is not the request's end − start (${endUs - startUs} µs)`,
        );
      }
    }
    const clientId = columns.has("client_id") ? field("client_id") : "";
    const clientKey = `${clientId}\0${thread}`;
    if (!clients.has(clientKey)) clients.set(clientKey, clients.size);
    const endpoint = columns.has("endpoint") ? field("endpoint") : "";
    if (endpoint !== "" && endpoints.size < IMPORT_LIMITS.endpoints) endpoints.add(endpoint);
    // One line each, as TailLab's error codes are: warp keeps the client's whole message.
    const error = field("error").replace(/\s+/g, " ").trim();
    sizes.set(bytes, (sizes.get(bytes) ?? 0) + 1);
    firstStartUs = Math.min(firstStartUs, startUs);
    lastEndUs = Math.max(lastEndUs, endUs);
    const requests = byOperation.get(op) ?? [];
    byOperation.set(op, requests);
    requests.push({
      client: clients.get(clientKey) as number,
      startUs,
      firstByteUs,
      endUs,
      bytes: error === "" ? bytes : 0,
      error: error === "" ? null : error,
    });
  }
  if (requestCount === 0) {
    throw new ImportFileError("line 2: no requests after the header; warp wrote none");
  }
  const phases = [...byOperation].map(([op, requests]) =>
    // The run clock starts at the first request, as a TailLab run's does.
    phaseOfRequests(
      op,
      requests.map((request) => ({
        ...request,
        startUs: request.startUs - firstStartUs,
        firstByteUs: request.firstByteUs === null ? null : request.firstByteUs - firstStartUs,
        endUs: request.endUs - firstStartUs,
      })),
    ),
  );
  const objectSizeBytes = Math.max(1, mostCommon(sizes));
  const sizeNote =
    sizes.size > 1
      ? [
          `one object size: warp's requests moved ${sizes.size} different sizes; the point shows the most common (${objectSizeBytes} bytes)`,
        ]
      : [];
  return {
    tool: "warp",
    startedAt: new Date(Math.floor(firstStartUs / 1000)).toISOString(),
    finishedAt: new Date(Math.ceil(lastEndUs / 1000)).toISOString(),
    endpoints: [...endpoints],
    command: rows.comments.length > 0 ? withoutSecrets(rows.comments.join("\n")) : null,
    points: [{ clients: clients.size, objectSizeBytes, phases }],
    notCarried: [...NOT_CARRIED, ...sizeNote],
  };
}

/** warp redacts its keys in the command line it keeps; a file from elsewhere may not have. */
function withoutSecrets(command: string): string {
  return command.replace(/(--(?:access-key|secret-key|sts-web-token)[= ])\S+/g, "$1*REDACTED*");
}

function mostCommon(counts: ReadonlyMap<number, number>): number {
  let best = 0;
  let bestCount = -1;
  for (const [value, count] of counts) {
    if (count > bestCount) [best, bestCount] = [value, count];
  }
  return best;
}

function wholeNumber(text: string, where: string): number {
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new ImportFileError(`${where}: ${shownValue(text)} is not a whole number`);
  }
  return value;
}

/** Go's RFC3339Nano (time.Format): fraction optional, trailing zeros trimmed; Z or ±hh:mm. */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Microseconds since the epoch (a double holds them exactly to the year 2255). */
function epochMicroseconds(text: string, where: string): number {
  const match = RFC3339.exec(text);
  const wholeSeconds = match ? Date.parse(`${text.slice(0, 19)}${match[8] as string}`) : Number.NaN;
  if (!match || Number.isNaN(wholeSeconds)) {
    throw new ImportFileError(
      `${where}: ${shownValue(text)} is not a time as warp writes it (RFC 3339, e.g. 2024-05-01T10:00:00.123456789Z)`,
    );
  }
  const fractionUs = Number((match[7] ?? "").padEnd(6, "0").slice(0, 6));
  return wholeSeconds * 1000 + fractionUs;
}

/**
 * Rows of a tab-separated file as Go's csv reader reads warp's (Comma '\t', Comment '#'): fields
 * may be quoted, with "" for a quote, and a quoted field may hold a line break. `comments` holds
 * the comment lines read so far, without their "# ".
 */
function tabSeparatedRows(text: string): Generator<{ line: number; fields: string[] }> & {
  comments: string[];
} {
  const comments: string[] = [];
  function* rows(): Generator<{ line: number; fields: string[] }> {
    let at = 0;
    let line = 1;
    while (at < text.length) {
      const end = lineEnd(text, at);
      if (end - at > IMPORT_LIMITS.lineChars) {
        throw new ImportFileError(
          `line ${line}: longer than ${IMPORT_LIMITS.lineChars} characters; warp's lines are far shorter`,
        );
      }
      const rowLine = line;
      const first = text.slice(at, end).replace(/\r$/, "");
      if (first.startsWith("#")) {
        comments.push(first.replace(/^# ?/, ""));
        [at, line] = [end + 1, line + 1];
      } else if (!first.includes('"')) {
        [at, line] = [end + 1, line + 1];
        if (first !== "") yield { line: rowLine, fields: first.split("\t") };
      } else {
        const row = quotedRow(text, at, rowLine);
        [at, line] = [row.next, row.nextLine];
        yield { line: rowLine, fields: row.fields };
      }
    }
  }
  return Object.assign(rows(), { comments });
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}

/** A row with quoted fields, which may run over several lines. */
function quotedRow(
  text: string,
  from: number,
  line: number,
): { fields: string[]; next: number; nextLine: number } {
  const fields: string[] = [];
  let at = from;
  let nextLine = line;
  for (;;) {
    let field: string;
    if (text[at] === '"') {
      const closing = quotedFieldEnd(text, at + 1, line);
      const quoted = text.slice(at + 1, closing);
      field = quoted.replaceAll('""', '"');
      nextLine += quoted.split("\n").length - 1;
      at = closing + 1;
    } else {
      let end = at;
      while (end < text.length && !"\t\n".includes(text[end] as string)) end += 1;
      field = text.slice(at, end).replace(/\r$/, "");
      if (field.includes('"'))
        throw new ImportFileError(`line ${nextLine}: a quote inside an unquoted field`);
      at = end;
    }
    fields.push(field);
    const separator = text[at];
    if (separator === "\t") {
      at += 1;
    } else if (
      separator === undefined ||
      separator === "\n" ||
      (separator === "\r" && text[at + 1] === "\n")
    ) {
      const next = separator === "\r" ? at + 2 : at + 1;
      return { fields, next, nextLine: nextLine + 1 };
    } else {
      throw new ImportFileError(`line ${nextLine}: text after a closing quote`);
    }
  }
}

/** The index of the quote that closes a quoted field starting at `from`. */
function quotedFieldEnd(text: string, from: number, line: number): number {
  let at = from;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1 || quote - from > IMPORT_LIMITS.lineChars) {
      throw new ImportFileError(`line ${line}: a quoted field is never closed`);
    }
    if (text[quote + 1] !== '"') return quote;
    at = quote + 2;
  }
}
