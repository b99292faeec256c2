import type { RunIndexEntry } from "@taillab/api";

export interface RunFilter {
  /** Words that must each appear in the name, a tag, the notes or the id (any case). */
  query: string;
  /** Only runs with this tag; null for all. */
  tag: string | null;
}

/** The runs a library search shows, newest first. */
export function filterRuns(runs: readonly RunIndexEntry[], filter: RunFilter): RunIndexEntry[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return runs
    .filter((run) => filter.tag === null || run.tags.includes(filter.tag))
    .filter((run) => {
      if (words.length === 0) return true;
      const haystack = [run.name, run.id, run.notes, ...run.tags].join("\n").toLowerCase();
      return words.every((word) => haystack.includes(word));
    })
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/** Every tag in the library, once, in alphabetical order (for the tag filter). */
export function libraryTags(runs: readonly RunIndexEntry[]): string[] {
  return [...new Set(runs.flatMap((run) => run.tags))].sort((a, b) => a.localeCompare(b));
}
