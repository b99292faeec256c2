import type { RequestMode, RunIndexEntry } from "@taillab/api";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useRuns } from "./runs-store.ts";

/** The tag the backend gives every run of one mode series (run-manager.ts): `series:<hex>`. */
const SERIES_TAG = /^series:[0-9a-f]+$/;

export function isSeriesTag(tag: string): boolean {
  return SERIES_TAG.test(tag);
}

/** The modes the runs of a series ran, in the order they ran (oldest first), each once. */
export function seriesModes(tag: string, runs: readonly RunIndexEntry[]): RequestMode[] {
  const members = runs
    .filter((run) => run.tags.includes(tag))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return [...new Set(members.map((run) => run.mode))];
}

/**
 * A tag as a person reads it: a series' internal id becomes the modes its runs compared
 * ("series: normal · hedged · tied"); any other tag as it was given.
 */
export function useTagText(): (tag: string) => string {
  const { t } = useTranslation("runs");
  const runs = useRuns((state) => state.runs);
  return useCallback(
    (tag: string) =>
      isSeriesTag(tag)
        ? t("library.seriesTag", {
            modes: seriesModes(tag, runs)
              .map((mode) => t(`modes.${mode}`))
              .join(" · "),
          })
        : tag,
    [t, runs],
  );
}
