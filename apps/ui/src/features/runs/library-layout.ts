import {
  DEFAULT_SORT,
  NO_FILTER,
  parseFilter,
  parseSort,
  type RunFilter,
  type RunSort,
} from "./run-filter.ts";

/**
 * How the library is laid out and which runs it shows, kept across reloads and launches in local
 * storage.
 */
export interface LibraryLayout {
  sort: RunSort;
  /** The search, tag, status, endpoint and kind filters. */
  filter: RunFilter;
  /** One line per run: no notes, the row's actions shown on hover or focus. */
  compact: boolean;
}

const STORAGE_KEY = "taillab.library";

export function loadLibraryLayout(storage: Storage = localStorage): LibraryLayout {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? "{}") as Partial<LibraryLayout>;
    return {
      sort: parseSort(saved.sort),
      filter: parseFilter(saved.filter),
      compact: saved.compact === true,
    };
  } catch {
    return { sort: DEFAULT_SORT, filter: NO_FILTER, compact: false };
  }
}

export function keepLibraryLayout(layout: LibraryLayout, storage: Storage = localStorage): void {
  storage.setItem(STORAGE_KEY, JSON.stringify(layout));
}
