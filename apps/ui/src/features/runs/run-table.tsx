import type { RunIndexEntry } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { RunRow } from "./run-row.tsx";
import { useRuns } from "./runs-store.ts";

/** The library's table: one row per run shown, a header box that ticks them all. */
export function RunTable({ runs }: { runs: readonly RunIndexEntry[] }) {
  const { t } = useTranslation("runs");
  const selected = useRuns((state) => state.selected);
  const setSelected = useRuns((state) => state.setSelected);
  const compact = useRuns((state) => state.compact);
  const shownIds = runs.map((run) => run.id);
  const allTicked = shownIds.length > 0 && shownIds.every((id) => selected.includes(id));
  return (
    <div className="table-scroll card flush">
      <table
        className={compact ? "data runs-table compact" : "data runs-table"}
        data-testid="runs-table"
        data-count={runs.length}
        data-compact={compact}
      >
        <thead>
          <tr>
            <th className="select-cell">
              <input
                type="checkbox"
                data-testid="run-select-all"
                aria-label={t("library.selectAll")}
                checked={allTicked}
                onChange={() =>
                  setSelected(
                    allTicked
                      ? selected.filter((id) => !shownIds.includes(id))
                      : [...new Set([...selected, ...shownIds])],
                  )
                }
              />
            </th>
            <th>{t("library.columns.name")}</th>
            <th>{t("library.columns.created")}</th>
            <th>{t("library.columns.status")}</th>
            <th>{t("library.columns.mode")}</th>
            <th>{t("library.columns.points")}</th>
            <th className="number">p50 (ms)</th>
            <th className="number">p99 (ms)</th>
            <th className="number">p99.9 (ms)</th>
            <th className="number">ops/s</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <RunRow key={run.id} run={run} selected={selected.includes(run.id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
