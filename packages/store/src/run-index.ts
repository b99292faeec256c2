import {
  RunIndexEntrySchema,
  type Headline,
  type RunDamage,
  type RunIndexEntry,
  type RunMeta,
  type RunStatus,
  type RunSummary,
} from "@taillab/api";
import { expandSweep, headlineSpans, phaseLatencyFigureMs, pointsRan } from "@taillab/core";
import { readFile, stat } from "node:fs/promises";

/**
 * index.json: RunIndexEntry[] for listing runs without opening every folder. It is a cache: the
 * folders are the truth, and a missing or damaged index is rebuilt from them.
 */
export const INDEX_FILE = "index.json";

export function indexEntryOf(
  meta: RunMeta,
  status: RunStatus,
  summary: RunSummary | null,
  recordCount: number,
  damage: RunDamage | null,
): RunIndexEntry {
  const headline: Headline[] =
    summary?.points[0]?.phases.map((phase) => ({
      op: phase.op,
      p50Ms: phaseLatencyFigureMs(phase, "p50"),
      p99Ms: phaseLatencyFigureMs(phase, "p99"),
      p999Ms: phaseLatencyFigureMs(phase, "p999"),
      opsPerSec: phase.opsPerSec,
      errors: phase.errors,
    })) ?? [];
  return {
    id: meta.id,
    name: meta.name,
    tags: meta.tags,
    notes: meta.notes,
    createdAt: meta.createdAt,
    status,
    mode: meta.spec.mode,
    loop: meta.spec.openLoop ? "open" : "closed",
    points: expandSweep(meta.spec),
    pointsFinished: summary ? summary.points.filter((point) => point.finished).length : null,
    pointsRun: summary ? pointsRan(summary.points) : null,
    recordCount,
    headline,
    headlineSpan: headlineSpans(summary?.points ?? []),
    endpoint: meta.spec.endpoints?.[0]?.url ?? null,
    damage,
    importedFrom: meta.imported?.tool ?? null,
  };
}

/**
 * The entry of a folder whose run.json cannot be used: named by its id, created when the folder
 * last changed, with no spec to describe and its damage saying why.
 */
export function unreadableEntryOf(
  id: string,
  createdAt: string,
  status: RunStatus,
  recordCount: number,
  damage: RunDamage | null,
): RunIndexEntry {
  return {
    id,
    name: id,
    tags: [],
    notes: "",
    createdAt,
    status,
    mode: "normal",
    loop: "closed",
    points: [],
    pointsFinished: null,
    pointsRun: null,
    recordCount,
    headline: [],
    headlineSpan: [],
    endpoint: null,
    damage,
    importedFrom: null,
  };
}

/** The index and when it was written, or null when it is missing or damaged. */
export async function readIndex(
  path: string,
): Promise<{ entries: RunIndexEntry[]; mtimeMs: number } | null> {
  try {
    const [text, stats] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const parsed = RunIndexEntrySchema.array().safeParse(JSON.parse(text));
    return parsed.success ? { entries: parsed.data, mtimeMs: stats.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** Newest first; runs started in the same millisecond by id, which carries a random part. */
export function newestFirst(entries: RunIndexEntry[]): RunIndexEntry[] {
  return [...entries].sort(
    (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id.localeCompare(a.id),
  );
}

export function sameEntry(a: RunIndexEntry | undefined, b: RunIndexEntry): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
