import { compareRuns } from "@taillab/core";
import {
  loadSummaries,
  renderStoredReport,
  storedRequestsCsv,
  type ReportFormat,
  type ResultsStore,
} from "@taillab/backend";
import { formatRunComparison } from "@taillab/report";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  choiceValue,
  flagValue,
  formatFlagHelp,
  parseArguments,
  textValue,
  UsageError,
} from "./cli-args.ts";
import { EXIT } from "./exit-codes.ts";
import { escapedJson, printError, printJson, printOut } from "./terminal-output.ts";
import { openLibrary, RESULTS_FLAG } from "./results-library.ts";
import { checkPathFlag } from "./path-flags.ts";

/**
 * --baseline: a run's position, 1-based, checked against the runs given (baselineIndex): the
 * first by default.
 */
const BASELINE = textValue("1");

export const REPORT_FLAGS = [
  {
    name: "format",
    aliases: [],
    takesValue: true,
    description: "html, csv or json",
    value: choiceValue(["html", "csv", "json"], "html"),
  },
  {
    name: "out",
    aliases: [],
    takesValue: true,
    description: "write to this file (default: standard output)",
  },
  {
    name: "language",
    aliases: ["lang"],
    takesValue: true,
    description: "en or zh-CN",
    value: choiceValue(["en", "zh-CN"], "en"),
  },
  {
    name: "requests",
    aliases: [],
    takesValue: false,
    description: "csv: one row per request instead of per phase",
  },
  {
    name: "per-second",
    aliases: [],
    takesValue: false,
    description: "csv: one row per second of each point and operation (percentiles over time)",
  },
  {
    name: "bom",
    aliases: [],
    takesValue: false,
    description: "csv: start with a UTF-8 byte-order mark (Excel)",
  },
  {
    name: "baseline",
    aliases: [],
    takesValue: true,
    description: "several runs: which one (1-based) the others are compared with",
    value: BASELINE,
  },
  RESULTS_FLAG,
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const;

export const REPORT_HELP = `Usage: taillab report RUN... [flags]

Writes a run's report: a self-contained HTML page (opens offline, charts inline), the summary as
CSV (s3bench's columns, one row per point and phase; or one per request, or per second) or JSON
(importable with taillab runs import). Several runs make one comparison report.

${formatFlagHelp(REPORT_FLAGS)}
`;

export const COMPARE_FLAGS = [
  {
    name: "baseline",
    aliases: [],
    takesValue: true,
    description: "which run (1-based) the others are compared with",
    value: BASELINE,
  },
  { name: "json", aliases: [], takesValue: false, description: "print the comparison as JSON" },
  RESULTS_FLAG,
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const;

export const COMPARE_HELP = `Usage: taillab compare RUN... [flags]

Aligns the runs' phases by clients, samples, object size and operation and prints each run's
figures beside the baseline's, with the change in %. A run that shares no point with the baseline
is paired with it point by point in order, and a line after the table says what differs.

${formatFlagHelp(COMPARE_FLAGS)}
`;

export async function reportCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals: runIds } = parseArguments(argv, REPORT_FLAGS);
  if (flags.help || runIds.length === 0) {
    printOut(REPORT_HELP);
    return flags.help ? EXIT.ok : EXIT.badInput;
  }
  const format = flagValue(REPORT_FLAGS, flags, "format");
  const language = flagValue(REPORT_FLAGS, flags, "language");
  if (flags.requests && format !== "csv") {
    throw new UsageError("requests", "--requests goes with --format csv");
  }
  if (flags["per-second"] && (format !== "csv" || flags.requests)) {
    throw new UsageError("per-second", "--per-second goes with --format csv, without --requests");
  }
  if (typeof flags.out === "string") await checkPathFlag("out", flags.out, "file");
  const store = await openLibrary(flags.results, "read");
  await warnOfDamage(store, runIds);
  const options = {
    format: format as ReportFormat,
    language,
    requests: flags.requests === true,
    perSecond: flags["per-second"] === true,
    bom: flags.bom === true,
    baselineIndex: baselineIndex(flagValue(REPORT_FLAGS, flags, "baseline"), runIds.length),
  };
  // A per-request CSV is streamed as its records are read: a long run's would not fit in memory.
  const report: AsyncIterable<string> | Iterable<string> =
    format === "csv" && options.requests
      ? storedRequestsCsv(store, runIds, options)
      : [await renderStoredReport(store, runIds, options)];
  if (typeof flags.out === "string") {
    const out = flags.out;
    await pipeline(Readable.from(report), createWriteStream(out)).catch(async (error: unknown) => {
      await rm(out, { force: true });
      throw error;
    });
    printError(`wrote ${out}\n`);
    return EXIT.ok;
  }
  for await (const chunk of report) {
    if (format === "json") {
      // Escaped, not stripped: the same JSON value, whatever reads it.
      await writeStdout(escapedJson(chunk));
    } else if (process.stdout.isTTY) {
      printOut(chunk);
    } else {
      // Redirected, the report is a file (CSV lines end in CRLF): its bytes go out as they are.
      await writeStdout(chunk);
    }
  }
  return EXIT.ok;
}

export async function compareCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals: runIds } = parseArguments(argv, COMPARE_FLAGS);
  if (flags.help || runIds.length === 0) {
    printOut(COMPARE_HELP);
    return flags.help ? EXIT.ok : EXIT.badInput;
  }
  const store = await openLibrary(flags.results, "read");
  await warnOfDamage(store, runIds);
  const runs = await loadSummaries(store, runIds);
  const comparison = compareRuns(
    runs.map((run) => run.summary),
    baselineIndex(flagValue(COMPARE_FLAGS, flags, "baseline"), runIds.length),
  );
  if (flags.json) printJson(comparison);
  else {
    printOut(
      formatRunComparison(
        comparison,
        runs.map((run, index) => `${run.name} [${runIds[index]}]`),
      ),
    );
  }
  return EXIT.ok;
}

/** Whatever the format, a damaged run's export says on stderr that it covers what could be read. */
async function warnOfDamage(store: ResultsStore, runIds: readonly string[]): Promise<void> {
  for (const runId of runIds) {
    const { damage } = await store.get(runId);
    for (const problem of damage?.problems ?? []) {
      printError(`warning: run ${runId} is damaged: ${problem}\n`);
    }
  }
}

/** Writes to stdout, waiting while the reader is behind: a streamed export stays one chunk. */
async function writeStdout(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, "drain");
}

function baselineIndex(value: string, runCount: number): number {
  const position = Number(value);
  if (!Number.isInteger(position) || position < 1 || position > runCount) {
    throw new UsageError(
      "baseline",
      `expected a run position from 1 to ${runCount}, got "${value}"`,
    );
  }
  return position - 1;
}
