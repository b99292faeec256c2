import { RUN_FOLDER_SCHEMA_VERSION } from "@taillab/api";
import { ResultsStoreError } from "./results-error.ts";

/** A run folder's documents as read from disk, before they are checked against the schemas. */
export interface FolderDocuments {
  /** run.json */
  meta: Record<string, unknown>;
  /** summary.json, when there is one. */
  summary: unknown;
  /** histograms.json, when there is one. */
  histograms: unknown;
}

/** Upgrades the documents of a folder from version n (its key) to version n + 1. */
export type FolderMigration = (documents: FolderDocuments) => FolderDocuments;
export type MigrationTable = Readonly<Record<number, FolderMigration>>;

/**
 * Version 1 is the first results format, so there is nothing to upgrade yet. When version 2
 * comes, `1: (documents) => …` goes here and every older folder is read through it.
 */
export const FOLDER_MIGRATIONS: MigrationTable = {};

export function folderVersionOf(meta: unknown, where: string): number {
  const version = (meta as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
    throw new ResultsStoreError(
      `${where}: run.json has no valid schemaVersion; it is not a TailLab run`,
    );
  }
  return version;
}

/**
 * The documents at RUN_FOLDER_SCHEMA_VERSION: a newer folder is refused (this TailLab cannot
 * know what changed), an older one goes through the migrations one version at a time.
 */
export function upgradeDocuments(
  documents: FolderDocuments,
  where: string,
  migrations: MigrationTable = FOLDER_MIGRATIONS,
): { documents: FolderDocuments; fromVersion: number } {
  const fromVersion = folderVersionOf(documents.meta, where);
  refuseNewerVersion(fromVersion, where);
  let upgraded = documents;
  for (let version = fromVersion; version < RUN_FOLDER_SCHEMA_VERSION; version += 1) {
    const migration = migrations[version];
    if (!migration) {
      throw new ResultsStoreError(
        `${where} has results schema version ${version}, which this TailLab cannot upgrade ` +
          `(no migration from version ${version} to ${version + 1})`,
      );
    }
    upgraded = migration(upgraded);
    upgraded = { ...upgraded, meta: { ...upgraded.meta, schemaVersion: version + 1 } };
  }
  return { documents: upgraded, fromVersion };
}

export function refuseNewerVersion(version: number, where: string): void {
  if (version > RUN_FOLDER_SCHEMA_VERSION) {
    throw new ResultsStoreError(
      `${where} was written by a newer TailLab (results schema version ${version}; this ` +
        `version reads up to ${RUN_FOLDER_SCHEMA_VERSION}): update TailLab to open it`,
    );
  }
}
