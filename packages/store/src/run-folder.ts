import {
  PhaseHistogramsSchema,
  RUN_ID_PATTERN,
  RunMetaSchema,
  RunSummarySchema,
  type PhaseHistograms,
  type RunMeta,
  type RunStatus,
  type RunSummary,
} from "@taillab/api";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  upgradeDocuments,
  type FolderDocuments,
  type MigrationTable,
} from "./folder-migrations.ts";
import { ResultsStoreError } from "./results-error.ts";
import { LOCK_FILE } from "./run-lock.ts";
import { isCode } from "./write-atomically.ts";

/** The files of one run folder, `<results dir>/<runId>/`. */
export const RUN_FILES = {
  /** RunMeta: replaced atomically when the run starts, ends, or is renamed, tagged, annotated. */
  meta: "run.json",
  /** The append-only records log (record-log-format.ts). */
  records: "records.log",
  /** PhaseHistograms[]: replaced atomically as each phase ends. */
  histograms: "histograms.json",
  /** RunSummary: written last, atomically, when the run completes. */
  summary: "summary.json",
  /**
   * HdrHistogram interval log (core's interval-log.ts): a header when the run starts, each
   * phase's percentiles over time appended as it ends. A torn last line is skipped on reading.
   */
  intervals: "intervals.hlog",
  /** The live writer's pid and start token (run-lock.ts); removed when the run ends. */
  lock: LOCK_FILE,
} as const;

export { RUN_ID_PATTERN };

export interface RunFolderContents {
  meta: RunMeta;
  summary: RunSummary | null;
  histograms: PhaseHistograms[];
  /** The version the folder is written in (older ones are upgraded in memory). */
  fromVersion: number;
  /** summary.json or histograms.json that could not be read: they count as missing. */
  problems: FolderProblem[];
}

/** A file of a run folder that is there but cannot be used, and why. */
export interface FolderProblem {
  file: typeof RUN_FILES.summary | typeof RUN_FILES.histograms;
  /** e.g. `is not valid JSON (Unexpected end of JSON input)` */
  reason: string;
}

type ReadDocument = { ok: true; value: unknown } | { ok: false; reason: string };

/** A document's JSON (null when there is no such file), or why it cannot be used. */
async function readDocument(path: string): Promise<ReadDocument> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isCode(error, "ENOENT")) return { ok: true, value: null };
    return { ok: false, reason: `cannot be read (${(error as Error).message})` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `is not valid JSON (${(error as Error).message})` };
  }
}

/**
 * A folder's documents. run.json must be there and parse: without it the folder is not a run,
 * or one too damaged to open. A summary.json or histograms.json that cannot be read is a problem
 * and counts as missing (both can be rebuilt from the records).
 */
export async function readFolderDocuments(
  folder: string,
  where: string,
): Promise<{ documents: FolderDocuments; problems: FolderProblem[] }> {
  const meta = await readDocument(join(folder, RUN_FILES.meta));
  if (!meta.ok) throw new ResultsStoreError(`${where}: ${RUN_FILES.meta} ${meta.reason}`);
  if (meta.value === null) {
    throw new ResultsStoreError(
      `${where}: ${folder} has no ${RUN_FILES.meta}; it is not a TailLab run folder`,
    );
  }
  if (typeof meta.value !== "object" || Array.isArray(meta.value)) {
    throw new ResultsStoreError(`${where}: ${RUN_FILES.meta} does not hold a run's metadata`);
  }
  const problems: FolderProblem[] = [];
  const optional = async (file: FolderProblem["file"]): Promise<unknown> => {
    const read = await readDocument(join(folder, file));
    if (read.ok) return read.value;
    problems.push({ file, reason: read.reason });
    return null;
  };
  return {
    documents: {
      meta: meta.value as Record<string, unknown>,
      summary: await optional(RUN_FILES.summary),
      histograms: await optional(RUN_FILES.histograms),
    },
    problems,
  };
}

/** Reads, upgrades and checks a run folder's documents. */
export async function readRunFolder(
  folder: string,
  where: string,
  migrations: MigrationTable | undefined,
): Promise<RunFolderContents> {
  const read = await readFolderDocuments(folder, where);
  const { documents, fromVersion } = upgradeDocuments(read.documents, where, migrations);
  const checked = checkDocuments(documents, where);
  return { ...checked, fromVersion, problems: [...read.problems, ...checked.problems] };
}

/** run.json must match its schema; a summary or histograms that do not count as missing. */
export function checkDocuments(
  documents: FolderDocuments,
  where: string,
): Omit<RunFolderContents, "fromVersion"> {
  const problems: FolderProblem[] = [];
  const optional = <T>(
    file: FolderProblem["file"],
    schema: { safeParse(value: unknown): SafeParse<T> },
    value: unknown,
  ): T | null => {
    if (value === null) return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    problems.push({
      file,
      reason: `does not match the results schema (${describeIssues(parsed.error)})`,
    });
    return null;
  };
  return {
    meta: parseWith(RunMetaSchema, documents.meta, `${where}: ${RUN_FILES.meta}`),
    summary: optional(RUN_FILES.summary, RunSummarySchema, documents.summary),
    histograms:
      optional(RUN_FILES.histograms, PhaseHistogramsSchema.array(), documents.histograms) ?? [],
    problems,
  };
}

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}
type SafeParse<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };

export function parseWith<T>(
  schema: { safeParse(value: unknown): SafeParse<T> },
  value: unknown,
  where: string,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ResultsStoreError(
    `${where} does not match the results schema: ${describeIssues(result.error)}`,
  );
}

export function describeIssues({ issues }: { issues: Issue[] }): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * What a run is, from what its folder says and whether its writer lives:
 * - failed and interrupted are final;
 * - complete (stopped, serverLost) needs its summary (summary.json is written last: without it
 *   the run did not end);
 * - otherwise the run is running while its writer lives, and interrupted once it does not.
 */
export function effectiveStatus(
  recorded: RunStatus,
  hasSummary: boolean,
  writerAlive: boolean,
): RunStatus {
  if (recorded === "failed" || recorded === "interrupted") return recorded;
  const ended = recorded === "complete" || recorded === "stopped" || recorded === "serverLost";
  if (ended && hasSummary) return recorded;
  return writerAlive ? "running" : "interrupted";
}
