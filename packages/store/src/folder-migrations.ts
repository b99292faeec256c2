import { RUN_FOLDER_SCHEMA_VERSION } from "@taillab/api";
import { expandSweep, parseRunSpec } from "@taillab/core";
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

type Document = Record<string, unknown>;

/**
 * Version 1 → 2: runs gained the status "stopped", points say whether they finished, and phases
 * the per-request timeline's figures. What version 1 did not measure stays null: client queue,
 * transfer, the steady window, the tail breakdown, and TTFB (version 1 timed it from the intended
 * start to the response headers, which is not version 2's first body byte after the send).
 */
function upgradeToVersion2(documents: FolderDocuments): FolderDocuments {
  const summary = documents.summary as Document | null;
  const stopped = summary?.stopped === true;
  const meta =
    documents.meta.status === "complete" && stopped
      ? { ...documents.meta, status: "stopped" }
      : documents.meta;
  return {
    meta,
    summary: summary && upgradeSummary(summary, stopped),
    histograms: Array.isArray(documents.histograms)
      ? (documents.histograms as Document[]).map((phase) => ({
          pointIndex: phase.pointIndex,
          op: phase.op,
          latency: phase.latency,
          clientQueue: null,
          service: phase.service ?? null,
          ttfb: null,
          transfer: null,
        }))
      : documents.histograms,
  };
}

function upgradeSummary(summary: Document, stopped: boolean): Document {
  const rest = Object.fromEntries(Object.entries(summary).filter(([key]) => key !== "stopped"));
  const points = Array.isArray(summary.points) ? (summary.points as Document[]) : [];
  const spec = summary.spec as Document | undefined;
  const upgradePhases = (phases: unknown) =>
    Array.isArray(phases)
      ? (phases as Document[]).map((phase) => upgradePhase(phase, summary.loop, spec))
      : phases;
  return {
    ...rest,
    schemaVersion: 2,
    status: stopped ? "stopped" : "complete",
    pointCount: Math.max(1, points.length, plannedPoints(spec)),
    points: points.map((point, index) => ({
      ...point,
      finished: !stopped || index < points.length - 1,
      phases: upgradePhases(point.phases),
      ...(Array.isArray(point.repetitions)
        ? {
            repetitions: (point.repetitions as Document[]).map((repetition) => ({
              phases: upgradePhases(repetition.phases),
            })),
          }
        : {}),
    })),
  };
}

/** The points of a stored spec (version 1 kept only those that ran). */
function plannedPoints(spec: unknown): number {
  const parsed = parseRunSpec(spec);
  return parsed.ok ? expandSweep(parsed.spec).length : 0;
}

function upgradePhase(phase: Document, runLoop: unknown, spec: Document | undefined): Document {
  const requests = Number(phase.requests ?? 0);
  const errors = Number(phase.errors ?? 0);
  const hedge = phase.hedge as Document | undefined;
  const open = runLoop === "open" && (spec?.workload !== undefined || phase.op !== "DELETE");
  const { aborted, ...hedgeRest } = hedge ?? {};
  return {
    ...phase,
    loop: open ? "open" : "closed",
    steady: null,
    latencyMs: requests > errors ? phase.latencyMs : null,
    clientQueueMs: null,
    serviceMs: phase.serviceMs ?? null,
    ttfbMs: null,
    transferMs: null,
    missedStarts: phase.missedStarts ?? 0,
    tail: null,
    ...(hedge ? { hedge: { ...hedgeRest, cancelled: aborted ?? 0, sameReplica: 0 } } : {}),
  };
}

/**
 * Version 2 → 3: records and phases gained connects (TCP + TLS) and uploads (a request body on
 * the wire) as parts of their own. A version-2 run did not measure them: its phases and tail
 * shares keep no connect or upload figures (shown as not recorded, as its client queue holds the
 * connect and its TTFB the upload), and its histograms of them are null.
 */
function upgradeToVersion3(documents: FolderDocuments): FolderDocuments {
  return {
    ...documents,
    histograms: Array.isArray(documents.histograms)
      ? (documents.histograms as Document[]).map((phase) => ({
          ...phase,
          connect: null,
          upload: null,
        }))
      : documents.histograms,
  };
}

/** Upgrades, one version at a time: every older folder is read through them. */
export const FOLDER_MIGRATIONS: MigrationTable = { 1: upgradeToVersion2, 2: upgradeToVersion3 };

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
