import {
  RUN_FOLDER_SCHEMA_VERSION,
  RunMetaSchema,
  type RunEnvironment,
  type RunMeta,
  type RunSpec,
} from "@taillab/api";
import { intervalLogHeader } from "@taillab/core";
import { join } from "node:path";
import { commitFolder } from "./folder-staging.ts";
import { syncIndex } from "./library-index.ts";
import { createRecordLog } from "./record-log-writer.ts";
import { ResultsStoreError } from "./results-error.ts";
import { parseWith, RUN_FILES, RUN_ID_PATTERN } from "./run-folder.ts";
import { updateMeta } from "./run-edits.ts";
import { exists, type RunLibrary } from "./run-library.ts";
import { newLock, releaseLockToken } from "./run-lock.ts";
import { FolderRunWriter, type RunWriter } from "./run-writer.ts";
import { isDiskFull } from "./write-failure.ts";
import { writeFileAtomically, writeJsonAtomically } from "./write-atomically.ts";

export interface CreateRunInput {
  /** Becomes the folder name: letters, digits, ".", "_" and "-" (e.g. backend's newRunId()). */
  id: string;
  name: string;
  spec: RunSpec;
  environment: RunEnvironment;
  /** `<prefix>/<runId>/`: keys of the form `<keyPrefix><number>` are stored as numbers. */
  keyPrefix: string;
  /** When the run clock started (epoch ms): records and intervals count from it. */
  runStartEpochMs: number;
  tags?: string[];
  notes?: string;
  /** Defaults to now. */
  createdAt?: string;
  /** Called once if writing fails (e.g. the results disk is full): the host should stop the run. */
  onError?: (error: Error) => void;
}

/** Makes the run's folder, whole, with this process's lock in it, and opens its writer. */
export async function createRun(library: RunLibrary, input: CreateRunInput): Promise<RunWriter> {
  const { id } = input;
  if (!RUN_ID_PATTERN.test(id)) {
    throw new Error(
      `run id "${id}" cannot be a folder name: use letters, digits, ".", "_" and "-", starting with a letter or digit`,
    );
  }
  const meta = parseWith(
    RunMetaSchema,
    {
      schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
      id,
      name: input.name,
      tags: input.tags ?? [],
      notes: input.notes ?? "",
      createdAt: input.createdAt ?? new Date().toISOString(),
      spec: input.spec,
      environment: input.environment,
      keyPrefix: input.keyPrefix,
      status: "running",
      error: null,
      cleanup: null,
      recordsWritten: null,
    } satisfies RunMeta,
    `run ${id}: run.json`,
  );
  if (await exists(library.folderPath(id))) {
    throw new Error(`a run with id "${id}" already exists in ${library.dir}`);
  }
  const { writeBytes } = library;
  const lock = await newLock();
  try {
    // The folder appears whole (run.json, lock, empty log) or not at all.
    await commitFolder(library, id, async (staging) => {
      await writeJsonAtomically(join(staging, RUN_FILES.meta), meta, writeBytes);
      await writeJsonAtomically(join(staging, RUN_FILES.lock), lock, writeBytes);
      await createRecordLog(join(staging, RUN_FILES.records), writeBytes);
      await writeFileAtomically(
        join(staging, RUN_FILES.intervals),
        intervalLogHeader(input.runStartEpochMs),
        writeBytes,
      );
    });
  } catch (error) {
    releaseLockToken(lock.token);
    const reason = isDiskFull(error) ? "the results disk is full" : (error as Error).message;
    throw new ResultsStoreError(`could not create run ${id} in ${library.dir}: ${reason}`, {
      cause: error,
    });
  }
  const writer = await FolderRunWriter.open({
    id,
    dir: library.folderPath(id),
    keyPrefix: meta.keyPrefix,
    lock,
    onError: input.onError,
    host: {
      writeBytes,
      updateMeta: (runId, change) => updateMeta(library, runId, change),
      refreshIndex: async (runId) => void (await syncIndex(library, new Set([runId]))),
    },
  });
  await syncIndex(library, new Set([id])).catch(() => {});
  return writer;
}
