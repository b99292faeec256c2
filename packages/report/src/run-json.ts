import {
  RUN_FOLDER_SCHEMA_VERSION,
  RunExportSchema,
  type PhaseHistograms,
  type PhaseIntervals,
  type RunExport,
  type RunMeta,
  type RunSummary,
} from "@taillab/api";

/** What a run's JSON export holds. */
export interface RunExportInput {
  meta: RunMeta;
  summary: RunSummary;
  histograms: readonly PhaseHistograms[];
  /** The run's HdrHistogram interval log (its percentiles over time). */
  intervalLog: string;
  /** The log read as percentiles over time (core's intervalsFromLog). */
  intervals: readonly PhaseIntervals[];
}

/**
 * A run as one JSON file (`taillab report --format json`): its metadata, summary, merged
 * histograms and interval log (also read out second by second, each percentile with its
 * interval), schema-versioned so another TailLab can import it. No raw records, no secrets (the
 * spec holds credential references only).
 */
export function runExport(input: RunExportInput): RunExport {
  return {
    schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
    kind: "taillab-run",
    meta: input.meta,
    summary: input.summary,
    histograms: [...input.histograms],
    intervalLog: input.intervalLog,
    intervals: [...input.intervals],
  };
}

export function runExportJson(input: RunExportInput, options: { indent?: number } = {}): string {
  return `${JSON.stringify(runExport(input), null, options.indent ?? 2)}\n`;
}

export type RunImportResult = { ok: true; run: RunExport } | { ok: false; reason: string };

/** Reads an exported run back, saying what is wrong with a file that is not one. */
export function parseRunExport(json: string): RunImportResult {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  const kind = (data as { kind?: unknown } | null)?.kind;
  if (kind !== "taillab-run") {
    return {
      ok: false,
      reason: `not a TailLab run export (kind is ${JSON.stringify(kind)}, expected "taillab-run")`,
    };
  }
  const version = (data as { schemaVersion?: unknown }).schemaVersion;
  if (version !== RUN_FOLDER_SCHEMA_VERSION) {
    return {
      ok: false,
      reason: `run export schema version ${JSON.stringify(version)} is not supported (this TailLab reads version ${RUN_FOLDER_SCHEMA_VERSION})`,
    };
  }
  const parsed = RunExportSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
      .join("; ");
    return { ok: false, reason: `invalid run export: ${issues}` };
  }
  return { ok: true, run: parsed.data };
}
