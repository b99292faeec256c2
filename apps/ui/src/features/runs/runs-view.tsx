import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { api, hasBackend } from "../../app/api.ts";
import { useNavigation } from "../../app/navigation-store.ts";
import { useSettings } from "../../app/settings-store.ts";
import { ConfirmButton } from "../../shared/confirm-button.tsx";
import { isBuiltInLabName, useRunNameText } from "../experiments/experiment-text.ts";
import { ExportMenu } from "./export-menu.tsx";
import { LibraryControls } from "./library-controls.tsx";
import { filterRuns, isFiltered, sortRuns } from "./run-filter.ts";
import { RunTable } from "./run-table.tsx";
import { useRuns } from "./runs-store.ts";

/** The results library: every stored run, searchable, editable, and the way into detail and compare. */
export function RunsView() {
  const { t } = useTranslation("runs");
  const navigate = useNavigation((state) => state.navigate);
  const language = useSettings((state) => state.language);
  const runs = useRuns((state) => state.runs);
  const loading = useRuns((state) => state.loading);
  const error = useRuns((state) => state.error);
  const filter = useRuns((state) => state.filter);
  const sort = useRuns((state) => state.sort);
  const selected = useRuns((state) => state.selected);
  const removed = useRuns((state) => state.removed);
  const { load, setSelected, clearFilter, removeMany, undoRemove, dismissRemoved, dismissError } =
    useRuns.getState();
  const nameText = useRunNameText();

  // Entering the library shows what finished since (a run, another window, the CLI), and a run
  // that finishes while it is open joins it.
  useEffect(() => {
    void useRuns.getState().load();
    if (!hasBackend()) return;
    return api().onRunEvent((event) => {
      if (event.type === "finished") void useRuns.getState().load();
    });
  }, []);

  const shown = useMemo(
    () =>
      sortRuns(
        filterRuns(runs, filter, isBuiltInLabName),
        sort,
        (run) => (run.name ? nameText(run.name) : run.id),
        language,
      ),
    [runs, filter, sort, nameText, language],
  );
  // In the order they were ticked: the first is the comparison's and the export's baseline.
  const selectedIds = selected.filter((runId) => runs.some((run) => run.id === runId));

  return (
    <section className="view" data-testid="runs-view">
      <header className="view-header">
        <div>
          <h1>{t("library.title")}</h1>
          <p className="muted view-subtitle">{t("library.subtitle")}</p>
        </div>
        <button
          type="button"
          data-testid="runs-refresh"
          disabled={loading}
          onClick={() => void load()}
        >
          {loading ? t("library.loading") : t("library.refresh")}
        </button>
      </header>

      {error ? (
        <div className="banner error" role="alert" data-testid="runs-error">
          <span>{error}</span>
          <button type="button" className="ghost small" onClick={dismissError}>
            {t("library.dismiss")}
          </button>
        </div>
      ) : null}

      {removed.length > 0 ? (
        <div
          className="banner"
          role="status"
          data-testid="runs-removed"
          data-count={removed.length}
        >
          <span>{t("library.removed", { count: removed.length })}</span>
          <button
            type="button"
            className="small"
            data-testid="runs-undo-remove"
            onClick={() => void undoRemove()}
          >
            {t("library.undo")}
          </button>
          <button type="button" className="ghost small" onClick={dismissRemoved}>
            {t("library.dismiss")}
          </button>
        </div>
      ) : null}

      <LibraryControls runs={runs} />

      <div className="toolbar filter-bar">
        <span className="muted" data-testid="runs-shown" data-shown={shown.length}>
          {t("library.shown", { shown: shown.length, total: runs.length })}
        </span>
        <span className="toolbar-spacer" />
        <span className="muted" data-testid="runs-selected-count" data-count={selectedIds.length}>
          {t("library.selected", { n: selectedIds.length })}
        </span>
        {selectedIds.length > 0 ? (
          <>
            <button type="button" className="ghost small" onClick={() => setSelected([])}>
              {t("library.clearSelection")}
            </button>
            <ConfirmButton
              label={t("library.deleteSelected")}
              question={t("library.deleteSelectedQuestion", { count: selectedIds.length })}
              testId="runs-delete-selected"
              onConfirm={() => void removeMany(selectedIds)}
            />
          </>
        ) : null}
        <button
          type="button"
          className="primary"
          data-testid="compare-selected"
          disabled={selectedIds.length < 2}
          title={selectedIds.length < 2 ? t("library.compareHint") : undefined}
          onClick={() => navigate({ view: "compare", runIds: selectedIds })}
        >
          {t("library.compareSelected")}
        </button>
        <ExportMenu
          runIds={selectedIds}
          testIdPrefix="selection-"
          label={t("library.exportSelection")}
        />
      </div>

      {runs.length === 0 && !loading ? (
        <div className="card empty-state" data-testid="runs-empty">
          <h2>{t("library.empty")}</h2>
          <p>{t("library.emptyHint")}</p>
          <button
            type="button"
            className="primary"
            onClick={() => navigate({ view: "experiments" })}
          >
            {t("library.goToExperiments")}
          </button>
        </div>
      ) : shown.length === 0 && runs.length > 0 ? (
        <div className="card empty-state" data-testid="runs-no-match">
          <p>{t("library.noMatch")}</p>
          {isFiltered(filter) ? (
            <button type="button" onClick={clearFilter}>
              {t("library.clearSearch")}
            </button>
          ) : null}
        </div>
      ) : (
        <RunTable runs={shown} />
      )}
    </section>
  );
}
