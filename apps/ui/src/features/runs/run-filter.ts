import {
  RunStatusSchema,
  type HeadlineSpan,
  type RunIndexEntry,
  type RunStatus,
} from "@taillab/api";

/** What a run is, for the library's kind filter: one point, a sweep, a built-in lab, another tool's. */
export type RunKind = "point" | "sweep" | "lab" | "imported";
export const RUN_KINDS: readonly RunKind[] = ["point", "sweep", "lab", "imported"];

/** The endpoint filter's value for runs against the embedded testbed (their endpoint is null). */
export const TESTBED_ENDPOINT = "testbed";

export interface RunFilter {
  /** Words that must each appear in the name, a tag, the notes, the endpoint or the id (any case). */
  query: string;
  /** Only runs with this tag; null for all. */
  tag: string | null;
  status: RunStatus | null;
  /** An endpoint URL, TESTBED_ENDPOINT, or null for all. */
  endpoint: string | null;
  kind: RunKind | null;
}

export const NO_FILTER: RunFilter = {
  query: "",
  tag: null,
  status: null,
  endpoint: null,
  kind: null,
};

/**
 * Imported comes first (another tool's run may be a sweep too), then a built-in lab's run
 * (`isLabName` knows their names), then by its points.
 */
export function runKind(run: RunIndexEntry, isLabName: (name: string) => boolean): RunKind {
  if (run.importedFrom !== null) return "imported";
  if (isLabName(run.name)) return "lab";
  return run.points.length > 1 ? "sweep" : "point";
}

export function endpointOf(run: RunIndexEntry): string {
  return run.endpoint ?? TESTBED_ENDPOINT;
}

/** The runs a library search shows, in the order given. */
export function filterRuns(
  runs: readonly RunIndexEntry[],
  filter: RunFilter,
  isLabName: (name: string) => boolean = () => false,
): RunIndexEntry[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return runs.filter((run) => {
    if (filter.tag !== null && !run.tags.includes(filter.tag)) return false;
    if (filter.status !== null && run.status !== filter.status) return false;
    if (filter.endpoint !== null && endpointOf(run) !== filter.endpoint) return false;
    if (filter.kind !== null && runKind(run, isLabName) !== filter.kind) return false;
    if (words.length === 0) return true;
    const haystack = [run.name, run.id, run.notes, run.endpoint ?? "", ...run.tags]
      .join("\n")
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Whether any filter narrows the library (the empty state then offers to clear them). */
export function isFiltered(filter: RunFilter): boolean {
  return (
    filter.query.trim() !== "" ||
    filter.tag !== null ||
    filter.status !== null ||
    filter.endpoint !== null ||
    filter.kind !== null
  );
}

/** Every tag in the library, once, in alphabetical order (for the tag filter). */
export function libraryTags(runs: readonly RunIndexEntry[]): string[] {
  return [...new Set(runs.flatMap((run) => run.tags))].sort((a, b) => a.localeCompare(b));
}

/** Every endpoint runs of the library used, the testbed first, then URLs in order. */
export function libraryEndpoints(runs: readonly RunIndexEntry[]): string[] {
  const urls = new Set(runs.map(endpointOf));
  const testbed = urls.delete(TESTBED_ENDPOINT) ? [TESTBED_ENDPOINT] : [];
  return [...testbed, ...[...urls].sort((a, b) => a.localeCompare(b))];
}

/** The phases a library row shows: the cleanup (DELETE) only when nothing else ran. */
export function headlinePhases<Phase extends { op: string }>(phases: readonly Phase[]): Phase[] {
  const main = phases.filter((phase) => phase.op !== "DELETE");
  return main.length > 0 ? main : [...phases];
}

/** The figures a library row sorts by. */
export type RunSortKey = "date" | "name" | "p99" | "opsPerSec";
export const RUN_SORT_KEYS: readonly RunSortKey[] = ["date", "name", "p99", "opsPerSec"];

export interface RunSort {
  key: RunSortKey;
  descending: boolean;
}

export const DEFAULT_SORT: RunSort = { key: "date", descending: true };

/**
 * The run's figure for a sort by p99 or ops/s, over its whole sweep: the worst p99 (its highest
 * over points and phases) and the best throughput (the highest ops/s). Null when nothing answered.
 */
export function sortFigure(run: RunIndexEntry, key: "p99" | "opsPerSec"): number | null {
  const spans: HeadlineSpan[] = headlinePhases(run.headlineSpan).filter((span) => span.points > 0);
  const values = spans.flatMap((span) =>
    key === "p99" ? (span.p99Ms ? [span.p99Ms.high] : []) : [span.opsPerSec.high],
  );
  return values.length > 0 ? Math.max(...values) : null;
}

/**
 * The runs in a sort's order; runs with no figure to sort by go last either way, and ties keep
 * the newest first (runs of one moment keep the order given: the store's). `nameOf` gives the name as shown (a built-in lab's in the UI's language).
 */
export function sortRuns(
  runs: readonly RunIndexEntry[],
  sort: RunSort,
  nameOf: (run: RunIndexEntry) => string = (run) => run.name,
  locale?: string,
): RunIndexEntry[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: "base" });
  const newestFirst = (a: RunIndexEntry, b: RunIndexEntry) =>
    Date.parse(b.createdAt) - Date.parse(a.createdAt);
  const direction = sort.descending ? -1 : 1;
  const compare = (a: RunIndexEntry, b: RunIndexEntry): number => {
    switch (sort.key) {
      case "date":
        return -direction * newestFirst(a, b);
      case "name":
        return direction * collator.compare(nameOf(a), nameOf(b)) || newestFirst(a, b);
      case "p99":
      case "opsPerSec": {
        const [x, y] = [sortFigure(a, sort.key), sortFigure(b, sort.key)];
        if (x === null || y === null) {
          return (x === null ? 1 : 0) - (y === null ? 1 : 0) || newestFirst(a, b);
        }
        return direction * (x - y) || newestFirst(a, b);
      }
    }
  };
  return [...runs].sort(compare);
}

/** A sort read back from storage, or the default when it is not one. */
/** A filter as kept (local storage): a field of another shape is no filter on that field. */
export function parseFilter(value: unknown): RunFilter {
  if (typeof value !== "object" || value === null) return NO_FILTER;
  const kept = value as Record<string, unknown>;
  const text = (field: unknown) => (typeof field === "string" ? field : null);
  const status = RunStatusSchema.safeParse(kept.status);
  return {
    query: text(kept.query) ?? "",
    tag: text(kept.tag),
    status: status.success ? status.data : null,
    endpoint: text(kept.endpoint),
    kind: RUN_KINDS.includes(kept.kind as RunKind) ? (kept.kind as RunKind) : null,
  };
}

export function parseSort(value: unknown): RunSort {
  if (typeof value !== "object" || value === null) return DEFAULT_SORT;
  const { key, descending } = value as Partial<RunSort>;
  return RUN_SORT_KEYS.includes(key as RunSortKey) && typeof descending === "boolean"
    ? { key: key as RunSortKey, descending }
    : DEFAULT_SORT;
}
