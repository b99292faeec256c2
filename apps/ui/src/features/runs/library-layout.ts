import { DEFAULT_SORT, parseSort, type RunSort } from "./run-filter.ts";

/** How the library is laid out, kept across reloads and launches in local storage. */
export interface LibraryLayout {
  sort: RunSort;
  /** One line per run: no notes, the row's actions shown on hover or focus. */
  compact: boolean;
}

const STORAGE_KEY = "taillab.library";

export function loadLibraryLayout(storage: Storage = localStorage): LibraryLayout {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? "{}") as Partial<LibraryLayout>;
    return { sort: parseSort(saved.sort), compact: saved.compact === true };
  } catch {
    return { sort: DEFAULT_SORT, compact: false };
  }
}

export function keepLibraryLayout(layout: LibraryLayout, storage: Storage = localStorage): void {
  storage.setItem(STORAGE_KEY, JSON.stringify(layout));
}
