import type { RunIndexEntry } from "@taillab/api";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSettings } from "../../app/settings-store.ts";
import { DEFAULT_SORT, filterRuns, NO_FILTER, sortRuns } from "../runs/run-filter.ts";
import { formatRunDate } from "../runs/run-date.ts";
import { useRuns } from "../runs/runs-store.ts";
import { RunSearchField } from "../runs/run-search-field.tsx";
import { StatusBadge } from "../runs/status-badge.tsx";

/** Ticks runs from the library into the comparison; the route keeps the choice. */
export function RunPicker({
  runIds,
  onChange,
}: {
  runIds: readonly string[];
  onChange: (runIds: string[]) => void;
}) {
  const { t } = useTranslation("compare");
  const { t: tRuns } = useTranslation("runs");
  const language = useSettings((state) => state.language);
  const runs = useRuns((state) => state.runs);
  const loading = useRuns((state) => state.loading);
  const [query, setQuery] = useState("");
  useEffect(() => {
    void useRuns.getState().load();
  }, []);
  const shown: RunIndexEntry[] = useMemo(
    () => sortRuns(filterRuns(runs, { ...NO_FILTER, query }), DEFAULT_SORT),
    [runs, query],
  );
  return (
    <div className="run-picker" data-testid="compare-picker">
      <RunSearchField
        testId="compare-search"
        label={t("picker.search")}
        value={query}
        onChange={setQuery}
      />
      {shown.length === 0 ? (
        <p className="muted">{loading ? t("picker.loading") : t("picker.none")}</p>
      ) : (
        <ul className="picker-list">
          {shown.map((run) => {
            const picked = runIds.includes(run.id);
            return (
              <li
                key={run.id}
                data-testid="compare-pick"
                data-run-id={run.id}
                aria-selected={picked}
              >
                <label>
                  <input
                    type="checkbox"
                    data-testid="compare-pick-box"
                    checked={picked}
                    onChange={() =>
                      onChange(picked ? runIds.filter((id) => id !== run.id) : [...runIds, run.id])
                    }
                  />
                  <span className="picker-name">{run.name || run.id}</span>
                  <span className="badge" data-mode={run.mode}>
                    {tRuns(`modes.${run.mode}`)}
                  </span>
                  {run.status !== "complete" ? <StatusBadge status={run.status} /> : null}
                  <span className="muted nowrap">{formatRunDate(run.createdAt, language)}</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
