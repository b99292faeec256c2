import {
  InputError,
  RUN_FOLDER_SCHEMA_VERSION,
  RunExportSchema,
  type RunExport,
  type RunIndexEntry,
} from "@taillab/api";
import { ELBENCHO_JSON_START } from "@taillab/core";
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { refuseNewerVersion, upgradeDocuments, type FolderDocuments } from "./folder-migrations.ts";
import { commitFolder, freeId, writeContents } from "./folder-staging.ts";
import { entryAfterChange } from "./library-index.ts";
import { countLogRecords } from "./record-log-reader.ts";
import { ResultsStoreError } from "./results-error.ts";
import {
  checkDocuments,
  effectiveStatus,
  parseWith,
  readFolderDocuments,
  RUN_FILES,
  RUN_ID_PATTERN,
  type RunFolderContents,
} from "./run-folder.ts";
import { exists, type RunLibrary } from "./run-library.ts";
import { readToolFileText, toolRunExport } from "./tool-run.ts";
import { isCode } from "./write-atomically.ts";

/** Copies a run folder in (under a new id if its id is taken), upgraded to this version. */
export async function importFolder(library: RunLibrary, path: string): Promise<RunIndexEntry> {
  const source = resolve(path);
  const where = `import of ${source}`;
  const stats = await stat(source).catch(() => null);
  if (!stats?.isDirectory()) throw InputError.of("path", `${source}: there is no such folder`);
  const read = await readFolderDocuments(source, where);
  const { documents } = upgradeDocuments(read.documents, where, library.migrations);
  const contents = checkDocuments(documents, where);
  const [problem] = [...read.problems, ...contents.problems];
  if (problem) throw new ResultsStoreError(`${where}: ${problem.file} ${problem.reason}`);
  const records = join(source, RUN_FILES.records);
  const hasRecords = await exists(records);
  // Refuses a file that is not a records log (or one from a newer TailLab) before copying.
  if (hasRecords)
    await countLogRecords(records, `${where}: ${RUN_FILES.records}`, { verify: true });
  const intervalLog = await readFile(join(source, RUN_FILES.intervals), "utf8").catch(() => "");
  return addImported(library, { ...contents, intervalLog }, hasRecords ? records : null, where);
}

/** Imports a RunExport JSON file (meta, summary, histograms; no records). */
export async function importExport(library: RunLibrary, path: string): Promise<RunIndexEntry> {
  const source = resolve(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(source, "utf8"));
  } catch (error) {
    const reason = isCode(error, "ENOENT") ? "there is no such file" : (error as Error).message;
    throw InputError.of("path", `${source}: ${reason}`);
  }
  return importExported(library, parsed, source);
}

/**
 * Imports a file: a RunExport, or another benchmark's results (warp, s3bench, elbencho, fio) as a
 * run marked imported. A file that cannot be read whole imports nothing.
 */
export async function importFile(library: RunLibrary, path: string): Promise<RunIndexEntry> {
  const source = resolve(path);
  const read = await readToolFileText(source);
  const text = read.text.trimStart();
  // elbencho appends one JSON object per phase: a file of several is not one JSON document.
  const oneDocument = !text.startsWith(ELBENCHO_JSON_START);
  if (oneDocument && (source.endsWith(".json") || text.startsWith("{"))) {
    let parsed: { kind?: unknown } | null;
    try {
      parsed = JSON.parse(read.text) as { kind?: unknown } | null;
    } catch (error) {
      throw InputError.of("path", `${source}: ${(error as Error).message}`);
    }
    if (parsed?.kind === "taillab-run") return importExported(library, parsed, source);
  }
  const contents = toolRunExport(source, read, new Date());
  return addImported(library, contents, null, `import of ${source}`);
}

async function importExported(
  library: RunLibrary,
  parsed: unknown,
  source: string,
): Promise<RunIndexEntry> {
  const where = `import of ${source}`;
  const exported = parsed as Partial<Record<keyof RunExport, unknown>> | null;
  if (exported?.kind !== "taillab-run") {
    throw InputError.of(
      "path",
      `${source}: it is not a TailLab run export (no "kind": "taillab-run")`,
    );
  }
  if (typeof exported.schemaVersion === "number") {
    refuseNewerVersion(exported.schemaVersion, where);
  }
  const { documents } = upgradeDocuments(
    {
      meta: (exported.meta ?? {}) as FolderDocuments["meta"],
      summary: exported.summary ?? null,
      histograms: exported.histograms ?? [],
    },
    where,
    library.migrations,
  );
  const checked = parseWith(
    RunExportSchema,
    { schemaVersion: RUN_FOLDER_SCHEMA_VERSION, kind: "taillab-run", ...documents },
    where,
  );
  return addImported(library, checked, null, where);
}

async function addImported(
  library: RunLibrary,
  contents: Omit<RunFolderContents, "fromVersion" | "problems"> & { intervalLog: string },
  records: string | null,
  where: string,
): Promise<RunIndexEntry> {
  if (!RUN_ID_PATTERN.test(contents.meta.id)) {
    throw new ResultsStoreError(`${where}: run id "${contents.meta.id}" cannot be a folder name`);
  }
  const id = await freeId(library, contents.meta.id);
  // A copied run has no live writer: a run that had not ended is interrupted.
  const status = effectiveStatus(contents.meta.status, contents.summary !== null, false);
  await commitFolder(library, id, (staging) =>
    writeContents(library, staging, {
      meta: { ...contents.meta, id, status },
      summary: contents.summary && { ...contents.summary, runId: id },
      histograms: contents.histograms,
      records,
      intervalLog: contents.intervalLog,
    }),
  );
  return entryAfterChange(library, id);
}
