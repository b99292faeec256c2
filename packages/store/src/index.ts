export { defaultResultsDir, type ResultsDirContext } from "./results-dir.ts";
export { ResultsStoreError } from "./results-error.ts";
export {
  openResultsStore,
  type CreateRunInput,
  type ResultsStore,
  type ResultsStoreOptions,
  type StoredRun,
} from "./results-store.ts";
export type { RunWriter } from "./run-writer.ts";
export { RecordsSummarizer, type RebuiltResults } from "./records-summary.ts";
export { LogicalRequestReader } from "./logical-requests.ts";
export {
  errorAt,
  keyAt,
  OPERATIONS,
  recordAt,
  TEXT_KEY_FLAG,
  type RecordArrays,
  type RecordColumns,
} from "./record-columns.ts";
export { FLUSH_INTERVAL_MS, FLUSH_RECORDS, FSYNC_INTERVAL_MS } from "./record-log-writer.ts";
export {
  FOLDER_MIGRATIONS,
  type FolderMigration,
  type MigrationTable,
} from "./folder-migrations.ts";
export {
  syncDirectory,
  writeFileAtomically,
  writeJsonAtomically,
  type WriteBytes,
} from "./write-atomically.ts";
export { makeFolder } from "./make-folder.ts";
