import type { RunCleanup, RunSummary } from "@taillab/api";
import {
  createOutFolderWriter,
  ResultsStoreError,
  runAndRecord,
  validateRunSpec,
  type ResultsStore,
  type OutFolderWriter,
  type RunHooks,
} from "@taillab/backend";
import { expandSweep, presetRunSpec } from "@taillab/core";
import { formatPointParams, formatPointTailLabFigures } from "@taillab/report";
import { ClientWarnings } from "./client-warnings.ts";
import { readFile } from "node:fs/promises";
import { flagValue, formatFlagHelp, parseFlagsAsWritten, UsageError } from "./cli-args.ts";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.ts";
import { stoppableByInterrupt } from "./interrupts.ts";
import { createProgressDisplay } from "./progress-bar.ts";
import { openLibrary } from "./results-library.ts";
import { checkPathFlag } from "./path-flags.ts";
import { readSecretKeyFlag } from "./secret-key-flag.ts";
import { shardFlagsOf } from "./shard-flags.ts";
import { runShardCommand } from "./shard-command.ts";
import {
  cliSecrets,
  namingFlags,
  RUN_FLAGS,
  runNameFlag,
  specFromFlags,
  withThresholdFlags,
  writtenAsS3bench,
  type RunFlags,
} from "./run-flags.ts";
import { S3benchPrinter } from "./s3bench-printer.ts";
import { runVerdict } from "./run-verdict.ts";
import { formatThresholdLines, judgeThresholds, writeThresholdsJunit } from "./run-thresholds.ts";
import { printPoint, printSummary, printSummaryEnd } from "./summary-printer.ts";
import { printError, printOut } from "./terminal-output.ts";
import { LiveMetricsBook, parseMetricsAddress, serveLiveMetrics } from "./live-metrics.ts";

export const RUN_HELP = `Usage: taillab run [flags]

Runs a closed-loop benchmark: a write phase, a read phase of the same keys and a cleanup, with
s3bench's semantics. Without -endpoint it runs against the embedded testbed.

Written with s3bench's flags (-numClients, -accessKey, -verbose…, or -endpoint with one dash),
it prints exactly what s3bench prints, with TailLab's figures; --details adds TailLab's own after
it, and the run id and TailLab's notes go to stderr. The defaults are TailLab's.

Flags (s3bench's names work too):
${formatFlagHelp(RUN_FLAGS)}

${EXIT_CODES_HELP}
`;

/**
 * What a command line asks `taillab run` for, every field checked; throws the problems.
 * `written`: the flags as the user spelled them (s3bench's names choose s3bench's text);
 * `repeated`: every value of the repeatable flags (--threshold).
 */
export async function checkedRunInput(
  flags: RunFlags,
  written: readonly string[],
  repeated: { threshold?: string[] },
) {
  const secretWarning = await readSecretKeyFlag(flags, "run");
  const shard = shardFlagsOf(flags);
  const spec = withThresholdFlags(
    specFromFlags(flags, await readSpecFlag(flags)),
    repeated.threshold,
  );
  runNameFlag(flags);
  const validSpec = validateRunSpec(spec);
  const sweep = expandSweep(validSpec).length > 1;
  const asS3bench = flags.json !== true && writtenAsS3bench(written);
  checkS3benchFlags(flags, asS3bench, Boolean(validSpec.workload));
  return { secretWarning, shard, spec, sweep, asS3bench };
}

export async function runCommand(argv: readonly string[]): Promise<number> {
  const { flags, written, repeated } = parseFlagsAsWritten(argv, RUN_FLAGS);
  if (flags.help) {
    printOut(RUN_HELP);
    return EXIT.ok;
  }
  return await namingFlags(flags, () => runFromFlags(flags, written, repeated));
}

async function runFromFlags(
  flags: RunFlags,
  written: readonly string[],
  repeated: { threshold?: string[] },
): Promise<number> {
  // Bad input is refused before anything is created, the --out folder included.
  const { secretWarning, shard, spec, sweep, asS3bench } = await checkedRunInput(
    flags,
    written,
    repeated,
  );
  if (!shard && typeof flags.out === "string") await checkPathFlag("out", flags.out, "folder");
  const junitPath = typeof flags.junit === "string" ? flags.junit : null;
  if (junitPath !== null) await checkPathFlag("junit", junitPath, "file");
  const metricsAddress = typeof flags.metrics === "string" ? flags.metrics : null;
  if (metricsAddress !== null) parseMetricsAddress(metricsAddress);
  printError(secretWarning);
  if (shard) return runShardCommand(spec, flags, shard);
  const store = await openLibrary(flags.results, "write");
  const output = typeof flags.out === "string" ? await createOutFolderWriter(flags.out) : null;
  // Each point is printed as it ends and the summary once the measuring has: a stop is shown
  // at once, before the cleanup of what the run left.
  const shown: ShownHooks =
    flags.json === true
      ? { onMeasured: async (measured) => printSummary(measured, true) }
      : asS3bench
        ? s3benchHooks(flags, sweep)
        : {
            onPointDone: (_index, point) => printPoint(point, sweep),
            onMeasured: async (measured) => printSummaryEnd(measured),
          };
  const metrics = metricsAddress === null ? null : await startLiveMetrics(metricsAddress, shown);
  const { summary, cleanup } = await runWithInterrupts(spec, flags, store, output, shown).finally(
    () => metrics?.close(),
  );
  await output?.finish(summary);
  const thresholds = judgeThresholds(summary);
  if (thresholds.length > 0) {
    // With --json, stdout holds the summary alone; with s3bench's flags, s3bench's text alone.
    (flags.json === true || asS3bench ? printError : printOut)(formatThresholdLines(thresholds));
  }
  if (junitPath !== null) await writeThresholdsJunit(junitPath, summary, thresholds);
  const verdict = runVerdict(summary, cleanup, thresholds);
  if (verdict.line) printError(`taillab run: ${verdict.line}\n`);
  return verdict.code;
}

/**
 * `--metrics`: the live figures served for Prometheus while the run goes on; `shown` is given
 * the hooks that keep them.
 */
async function startLiveMetrics(address: string, shown: ShownHooks) {
  const book = new LiveMetricsBook();
  const endpoint = await serveLiveMetrics(address, book);
  printError(`live metrics at ${endpoint.url} (OpenMetrics, for Prometheus)\n`);
  const { onPhaseStart } = shown;
  shown.onPhaseStart = (pointIndex, op) => {
    book.onPhaseStart();
    onPhaseStart?.(pointIndex, op);
  };
  shown.onProgress = (progress, live) => book.onProgress(progress, live);
  return endpoint;
}

/** What s3bench's text can show: its write, read and cleanup, not a mixed workload. */
function checkS3benchFlags(flags: RunFlags, asS3bench: boolean, mixedWorkload: boolean): void {
  if (flags.details && !asS3bench) {
    throw new UsageError(
      "details",
      "adds TailLab's figures after s3bench's text: use it with s3bench's flags (-numClients, -endpoint …)",
    );
  }
  if (asS3bench && mixedWorkload) {
    throw new UsageError(
      "ops",
      "s3bench's text shows its write and read tests, not a mixed workload: write the flags TailLab's way (--endpoint, --clients …)",
    );
  }
}

/**
 * s3bench's text on stdout, exactly (s3bench-printer.ts); TailLab's figures after each point
 * with --details, and what TailLab says after the points (the run id) on stderr without it.
 */
function s3benchHooks(flags: RunFlags, sweep: boolean): ShownHooks {
  const printer = new S3benchPrinter({ verbose: flags.verbose === true, write: printOut });
  const details = flags.details === true;
  return {
    onNotice: (_message, notice) => printer.onNotice(notice),
    onRunStart: async (start) => printer.onRunStart(start),
    onPhaseStart: (pointIndex, op) => printer.onPhaseStart(pointIndex, op),
    onRecords: (_pointIndex, records) => printer.onRecords(records),
    onPointDone: (pointIndex, point) => {
      printer.onPointDone(pointIndex, point);
      if (details) {
        const heading = sweep ? `=== ${formatPointParams(point)} ===\n` : "";
        printOut("\n--- TailLab's figures (not s3bench's output) ---\n");
        printOut(`${heading}${formatPointTailLabFigures(point)}\n`);
      }
    },
    onMeasured: async (measured) =>
      printSummaryEnd(measured, true, details ? printOut : printError),
  };
}

/** What flags start from: a preset, then a spec file (or the spec's text) over it. */
export async function readSpecFlag(flags: RunFlags): Promise<Record<string, unknown>> {
  if (typeof flags.spec === "string" && typeof flags["spec-json"] === "string") {
    throw new UsageError("spec-json", "give --spec or --spec-json, not both");
  }
  const preset = typeof flags.preset === "string" ? presetSpec(flags) : {};
  const file = typeof flags.spec === "string" ? await readSpecFile(flags.spec) : {};
  const text =
    typeof flags["spec-json"] === "string"
      ? parseSpecText(flags["spec-json"], "spec-json", "the --spec-json text")
      : {};
  return { ...preset, ...file, ...text };
}

function presetSpec(flags: RunFlags): Record<string, unknown> {
  const scale = flagValue(RUN_FLAGS, flags, "scale");
  try {
    return { ...presetRunSpec(String(flags.preset), scale) };
  } catch (error) {
    throw new UsageError("preset", (error as Error).message);
  }
}

async function readSpecFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError("spec", `cannot read ${path}: ${(error as Error).message}`);
  }
  return parseSpecText(text, "spec", path);
}

function parseSpecText(text: string, field: string, what: string): Record<string, unknown> {
  try {
    // Windows editors may start a UTF-8 file with a byte-order mark; JSON.parse refuses it.
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("expected a JSON object");
    }
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(field, `${what} is not a valid spec: ${(error as Error).message}`);
  }
}

/** The hooks through which a command shows a run as it goes. */
type ShownHooks = Pick<
  RunHooks,
  | "onPointDone"
  | "onMeasured"
  | "onRunStart"
  | "onPhaseStart"
  | "onRecords"
  | "onNotice"
  | "onProgress"
>;

/** What a run ended with: its summary, and what its cleanup did (null when none ran). */
export interface FinishedRun {
  summary: RunSummary;
  cleanup: RunCleanup | null;
}

/**
 * Ctrl-C stops the run, keeps what was measured and cleans up (each request of the cleanup
 * bounded by the request timeout); a second Ctrl-C quits at once, leaving the rest to
 * `taillab cleanup`. `shown` prints points and the summary as they come.
 */
export async function runWithInterrupts(
  spec: object,
  flags: RunFlags,
  store: ResultsStore,
  output: OutFolderWriter | null = null,
  shown: ShownHooks = {},
): Promise<FinishedRun> {
  let runId: string | null = null;
  let cleanup: RunCleanup | null = null;
  const progress = createProgressDisplay(process.stderr);
  const warnings = new ClientWarnings();
  try {
    const summary = await stoppableByInterrupt(
      (signal) =>
        runAndRecord(
          spec,
          { env: { ...process.env, ...cliSecrets(flags) } },
          {
            signal,
            onRunStart: async (start) => {
              runId = start.runId;
              await shown.onRunStart?.(start);
            },
            onCleanup: async (done) => {
              cleanup = done;
            },
            onPointDone: (pointIndex, point) => {
              progress.clear();
              shown.onPointDone?.(pointIndex, point);
            },
            onMeasured: async (summary, pending) => {
              progress.clear();
              await shown.onMeasured?.(summary, pending);
            },
            onProgress: (update, live) => {
              shown.onProgress?.(update, live);
              const warning = warnings.next(live.clientSeconds);
              if (warning) {
                progress.clear();
                printError(`${warning}\n`);
              }
              progress.update(update);
            },
            onPhaseStart: (pointIndex, op) => {
              progress.clear();
              shown.onPhaseStart?.(pointIndex, op);
            },
            onRecords: (pointIndex, records) => {
              output?.addRecords(pointIndex, records);
              if (shown.onRecords) {
                progress.clear();
                shown.onRecords(pointIndex, records);
              }
            },
            onNotice: (message, notice) => {
              progress.clear();
              printError(`${message}\n`);
              shown.onNotice?.(message, notice);
            },
          },
          { store, ...runNameFlag(flags) },
        ),
      () => {
        const later = runId ? `; taillab cleanup ${runId} removes what is left` : "";
        return `stopping: in-flight requests cut off, cleaning up (Ctrl-C again quits at once${later})`;
      },
    );
    return { summary, cleanup };
  } catch (error) {
    // The results disk filled up: show what the library kept before main says why.
    if (error instanceof ResultsStoreError && runId !== null) {
      progress.clear();
      await printKeptSummary(store, runId, flags.json === true);
    }
    throw error;
  } finally {
    progress.clear();
  }
}

/** The summary of the records a run that could not be written to the end kept. */
async function printKeptSummary(store: ResultsStore, runId: string, asJson: boolean) {
  const run = await store.get(runId).catch(() => null);
  if (!run || run.recordCount === 0) {
    printError(`no records of run ${runId} reached the disk\n`);
    return;
  }
  printSummary(await store.summarizeFromRecords(runId), asJson);
}
