import type { Operation, RunSummary } from "@taillab/api";
import { decimateSeries, intervalsFromLog, latencyParts } from "@taillab/core";
import {
  overTimeCsv,
  renderComparisonReport,
  renderRunReport,
  requestsCsvChunks,
  runExportJson,
  summaryCsv,
  type LatencySeries,
  type ReportLanguage,
  type RunReportInput,
} from "@taillab/report";
import {
  LogicalRequestReader,
  type RebuiltResults,
  type RecordColumns,
  type ResultsStore,
} from "@taillab/store";
import { readCjkFont } from "./cjk-font-files.ts";
import { InputError } from "./input-error.ts";

export type ReportFormat = "csv" | "json" | "html";

export interface ReportOptions {
  format: ReportFormat;
  language: ReportLanguage;
  /** CSV: per-request rows instead of one row per run × point × phase. */
  requests: boolean;
  /** CSV: one row per run × point × operation × second (percentiles over time). */
  perSecond: boolean;
  /** CSV: a UTF-8 byte-order mark, for Excel. */
  bom: boolean;
  /** Several runs: the one the others are compared with. */
  baselineIndex: number;
}

/**
 * What a report draws from, for a stored run: its summary and merged histograms (both rebuilt
 * from the records when the run was interrupted or failed), and latency against request index
 * decimated per point and phase, so the report stays small however long the run was.
 */
export async function loadRunReportInput(
  store: ResultsStore,
  runId: string,
): Promise<RunReportInput> {
  const run = await store.get(runId);
  // A complete run has histograms for its phases: none means histograms.json was lost.
  const rebuilt =
    run.summary && run.histograms.length > 0 ? null : await store.rebuildFromRecords(runId);
  const columns = await store.loadRecords(runId);
  return {
    meta: { ...run.meta, status: run.status },
    summary: run.summary ?? (rebuilt as RebuiltResults).summary,
    histograms: rebuilt?.histograms ?? run.histograms,
    latencySeries: latencySeries(columns),
    damage: run.damage,
    intervals: intervalsFromLog(await store.intervalLog(runId)),
  };
}

/**
 * Each measured successful logical request's latency, as core defines it (latencyParts), in
 * order.
 */
function latencySeries(columns: RecordColumns): LatencySeries[] {
  const byPhase = new Map<string, { pointIndex: number; op: Operation; latenciesMs: number[] }>();
  const requests = new LogicalRequestReader((pointIndex, request) => {
    const parts = request.measured ? latencyParts(request) : null;
    if (!parts) return;
    const key = `${pointIndex}:${request.op}`;
    let phase = byPhase.get(key);
    if (!phase) {
      phase = { pointIndex, op: request.op, latenciesMs: [] };
      byPhase.set(key, phase);
    }
    phase.latenciesMs.push(parts.latencyUs / 1000);
  });
  requests.add(columns);
  requests.flush();
  return [...byPhase.values()].map(({ pointIndex, op, latenciesMs }) => ({
    pointIndex,
    op,
    buckets: decimateSeries(latenciesMs),
  }));
}

/** `taillab report`: one run as CSV, JSON or HTML; several runs as one comparison. */
export async function renderStoredReport(
  store: ResultsStore,
  runIds: readonly string[],
  options: ReportOptions,
): Promise<string> {
  if (options.format === "csv" && options.requests) {
    let csv = "";
    for await (const chunk of storedRequestsCsv(store, runIds, options)) csv += chunk;
    return csv;
  }
  const inputs = await Promise.all(runIds.map((runId) => loadRunReportInput(store, runId)));
  switch (options.format) {
    case "html": {
      // Chinese needs a font the reader's machine may not have: the report brings its own.
      const page = {
        language: options.language,
        cjkFont: options.language === "zh-CN" ? await readCjkFont() : undefined,
      };
      return inputs.length === 1
        ? renderRunReport(inputs[0] as RunReportInput, page)
        : renderComparisonReport(inputs, { ...page, baselineIndex: options.baselineIndex });
    }
    case "json": {
      const exports = await Promise.all(
        inputs.map(async (input) =>
          runExportJson({ ...input, intervalLog: await store.intervalLog(input.meta.id) }),
        ),
      );
      return exports.length === 1 ? (exports[0] as string) : `[${exports.join(",\n")}]\n`;
    }
    case "csv":
      if (options.perSecond) {
        return overTimeCsv(
          inputs.map((input) => ({ runId: input.meta.id, intervals: input.intervals })),
          { withBom: options.bom },
        );
      }
      return summaryCsv(
        inputs.map((input) => input.summary),
        {
          withBom: options.bom,
          runNames: Object.fromEntries(inputs.map((input) => [input.meta.id, input.meta.name])),
        },
      );
  }
}

/**
 * One run's per-request CSV, chunk by chunk as the records are read from its log: a writer that
 * takes the chunks as they come holds one chunk, whatever the run's length.
 */
export async function* storedRequestsCsv(
  store: ResultsStore,
  runIds: readonly string[],
  { bom }: Pick<ReportOptions, "bom">,
): AsyncGenerator<string> {
  const [runId] = runIds;
  if (runIds.length !== 1 || runId === undefined) {
    throw InputError.of(
      "requests",
      `a per-request CSV is of one run; ${runIds.length} runs were chosen (export a summary CSV to compare them)`,
    );
  }
  await store.requireRun(runId);
  yield* requestsCsvChunks(store.records(runId), { bom });
}

export async function loadSummaries(store: ResultsStore, runIds: readonly string[]) {
  return Promise.all(
    runIds.map(async (runId): Promise<{ name: string; summary: RunSummary }> => {
      const run = await store.get(runId);
      const summary = run.summary ?? (await store.summarizeFromRecords(runId));
      return { name: run.meta.name, summary };
    }),
  );
}
