import {
  RUN_FOLDER_SCHEMA_VERSION,
  type PhaseHistograms,
  type RequestRecord,
  type RunDamage,
  type RunExport,
  type RunMeta,
  type RunStatus,
  type RunSummary,
} from "@taillab/api";
import { formatIntervalLog, formatIntervalLogLine, intervalLogWithout } from "@taillab/core";
import { join } from "node:path";
import { readIntervalLogFile } from "./interval-log-file.ts";
import { byPointThenOp, recordAt, type RecordColumns } from "./record-columns.ts";
import { decodeRecordLog, loadRecordLog, readRecordBatches } from "./record-log-reader.ts";
import { RecordsSummarizer, type RebuiltResults } from "./records-summary.ts";
import { ResultsStoreError } from "./results-error.ts";
import { damageOf, describeProblem, readLogExtent } from "./run-damage.ts";
import { RUN_FILES } from "./run-folder.ts";
import type { InspectedRun } from "./run-library.ts";

/** One run as stored, with its status as of now (a dead writer's run is interrupted). */
export interface StoredRun {
  meta: RunMeta;
  status: RunStatus;
  /** Null until the run completes; summarizeFromRecords rebuilds one for the others. */
  summary: RunSummary | null;
  /** Of the phases that ended; rebuildFromRecords fills in the others of an unfinished run. */
  histograms: PhaseHistograms[];
  /** Records the log holds up to its first unreadable frame. */
  recordCount: number;
  /** What is wrong with the folder (files that could not be read, a cut or damaged log), or null. */
  damage: RunDamage | null;
}

export async function storedRun(run: InspectedRun): Promise<StoredRun> {
  const { records, damage } = await damageOfRun(run);
  return {
    meta: { ...run.meta, status: run.status },
    status: run.status,
    summary: run.summary,
    histograms: run.histograms,
    recordCount: records,
    damage,
  };
}

/** All records as columns; a log that is missing or cannot be read as one holds none. */
export function loadRecords(run: InspectedRun): Promise<RecordColumns> {
  const path = join(run.folder, RUN_FILES.records);
  const where = `run ${run.meta.id}: ${RUN_FILES.records}`;
  // get()'s damage says why a log could not be read.
  return loadRecordLog(path, run.meta.keyPrefix, where).catch(() =>
    decodeRecordLog(Buffer.alloc(0), run.meta.keyPrefix, where),
  );
}

export async function* recordsOf(
  run: InspectedRun,
): AsyncGenerator<{ pointIndex: number; record: RequestRecord }> {
  for await (const batch of recordBatches(run)) {
    for (let row = 0; row < batch.count; row += 1) {
      yield { pointIndex: batch.pointIndex[row] ?? 0, record: recordAt(batch, row) };
    }
  }
}

export async function exportOf(run: InspectedRun): Promise<RunExport> {
  // A complete run has histograms for its phases: none means histograms.json was lost.
  const rebuilt = run.summary && run.histograms.length > 0 ? null : await rebuild(run);
  const summary = run.summary ?? (rebuilt as RebuiltResults).summary;
  const histograms = rebuilt?.histograms ?? run.histograms;
  return {
    schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
    kind: "taillab-run",
    meta: { ...run.meta, status: run.status },
    summary,
    histograms,
    intervalLog: await intervalLogOf(run),
  };
}

/**
 * The log's batches. A log that is missing or cannot be opened as one holds none (get()'s
 * damage says why); one that fails while being read is a ResultsStoreError: what was read
 * stays with the caller.
 */
async function* recordBatches(run: InspectedRun): AsyncGenerator<RecordColumns> {
  const path = join(run.folder, RUN_FILES.records);
  const where = `run ${run.meta.id}: ${RUN_FILES.records}`;
  let batches = 0;
  try {
    for await (const batch of readRecordBatches(path, run.meta.keyPrefix, where)) {
      batches += 1;
      yield batch;
    }
  } catch (error) {
    if (batches === 0) return;
    throw new ResultsStoreError(
      `${where} could not be read past its ${batches} first frames: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

export async function rebuild(run: InspectedRun): Promise<RebuiltResults> {
  const rebuilt = await rebuildWhole(run);
  // The stored histograms are the engine's own and are kept. They agree with the rebuilt ones
  // (a phase's records are fsynced before its histograms are written): only the phase the run
  // died in has none.
  const stored = new Set(run.histograms.map(phaseKey));
  return {
    summary: rebuilt.summary,
    histograms: [
      ...run.histograms,
      ...rebuilt.histograms.filter((phase) => !stored.has(phaseKey(phase))),
    ].sort(byPointThenOp),
    intervalLines: rebuilt.intervalLines.filter((line) => !stored.has(phaseKey(line))),
  };
}

/** Every phase's summary, histograms and seconds, from the records alone. */
async function rebuildWhole(run: InspectedRun): Promise<RebuiltResults> {
  const summarizer = new RecordsSummarizer(run.meta);
  for await (const batch of recordBatches(run)) summarizer.add(batch);
  return summarizer.finish(run.summary?.status ?? null);
}

/**
 * The stored log; for a run without a summary, the lines of its unfinished phases rebuilt from
 * their records in place of the seconds those phases had written. A log that cannot be used
 * whole (missing, torn, damaged: get()'s damage says which) is rebuilt whole from the records.
 */
export async function intervalLogOf(run: InspectedRun): Promise<string> {
  const file = await readIntervalLogFile(run.folder, {
    live: run.status === "running",
    fromVersion: run.fromVersion,
  });
  if (!file.sound) {
    const { intervalLines } = await rebuildWhole(run);
    return formatIntervalLog(file.runStartEpochMs ?? Date.parse(run.meta.createdAt), intervalLines);
  }
  const stored = file.text;
  if (run.summary) return stored;
  const { intervalLines } = await rebuild(run);
  const ended = new Set(run.histograms.map(phaseKey));
  const kept = intervalLogWithout(
    stored,
    (pointIndex, op) => !ended.has(phaseKey({ pointIndex, op })),
  );
  const separator = kept.endsWith("\n") ? "" : "\n";
  return kept + separator + intervalLines.map(formatIntervalLogLine).join("");
}

/** What is wrong with a run's folder, and the records its log holds up to the damage. */
export async function damageOfRun(
  run: InspectedRun,
): Promise<{ records: number; damage: RunDamage | null }> {
  const log = await readLogExtent(run.folder, {
    status: run.status,
    recordsWritten: run.meta.recordsWritten,
    hasSummary: run.summary !== null,
  });
  const intervals = await readIntervalLogFile(run.folder, {
    live: run.status === "running",
    fromVersion: run.fromVersion,
  });
  const problems = [
    ...run.problems.map(describeProblem),
    intervals.sound ? null : intervals.problem,
  ];
  return { records: log.records, damage: damageOf(problems, log) };
}

function phaseKey(phase: Pick<PhaseHistograms, "pointIndex" | "op">): string {
  return `${phase.pointIndex}:${phase.op}`;
}
