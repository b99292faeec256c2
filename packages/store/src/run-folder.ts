import {
  PhaseHistogramsSchema,
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
  /** The live writer's pid and start token (run-lock.ts); removed when the run ends. */
  lock: LOCK_FILE,
} as const;

/** Run ids are folder names: no separators, no leading dot (dot-names are the store's own). */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export interface RunFolderContents {
  meta: RunMeta;
  summary: RunSummary | null;
  histograms: PhaseHistograms[];
  /** The version the folder is written in (older ones are upgraded in memory). */
  fromVersion: number;
}

/** The JSON in `path`, or null when there is no such file. */
export async function readJsonFile(path: string, where: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isCode(error, "ENOENT")) return null;
    throw new Error(`${where}: cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${where}: ${path} is not valid JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
}

export async function readFolderDocuments(folder: string, where: string): Promise<FolderDocuments> {
  const meta = await readJsonFile(join(folder, RUN_FILES.meta), where);
  if (meta === null) {
    throw new Error(`${where}: ${folder} has no ${RUN_FILES.meta}; it is not a TailLab run folder`);
  }
  if (typeof meta !== "object" || Array.isArray(meta)) {
    throw new Error(`${where}: ${RUN_FILES.meta} does not hold a run's metadata`);
  }
  return {
    meta: meta as Record<string, unknown>,
    summary: await readJsonFile(join(folder, RUN_FILES.summary), where),
    histograms: await readJsonFile(join(folder, RUN_FILES.histograms), where),
  };
}

/** Reads, upgrades and checks a run folder's documents. */
export async function readRunFolder(
  folder: string,
  where: string,
  migrations: MigrationTable | undefined,
): Promise<RunFolderContents> {
  const raw = await readFolderDocuments(folder, where);
  const { documents, fromVersion } = upgradeDocuments(raw, where, migrations);
  return { ...checkDocuments(documents, where), fromVersion };
}

export function checkDocuments(
  documents: FolderDocuments,
  where: string,
): Omit<RunFolderContents, "fromVersion"> {
  return {
    meta: parseWith(RunMetaSchema, documents.meta, `${where}: ${RUN_FILES.meta}`),
    summary:
      documents.summary === null
        ? null
        : parseWith(RunSummarySchema, documents.summary, `${where}: ${RUN_FILES.summary}`),
    histograms:
      documents.histograms === null
        ? []
        : parseWith(
            PhaseHistogramsSchema.array(),
            documents.histograms,
            `${where}: ${RUN_FILES.histograms}`,
          ),
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
  throw new Error(`${where} does not match the results schema: ${describeIssues(result.error)}`);
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
 * - complete needs its summary (summary.json is written last: without it the run did not end);
 * - otherwise the run is running while its writer lives, and interrupted once it does not.
 */
export function effectiveStatus(
  recorded: RunStatus,
  hasSummary: boolean,
  writerAlive: boolean,
): RunStatus {
  if (recorded === "failed" || recorded === "interrupted") return recorded;
  if (recorded === "complete" && hasSummary) return "complete";
  return writerAlive ? "running" : "interrupted";
}
