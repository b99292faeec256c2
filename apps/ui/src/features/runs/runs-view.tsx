import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { api, hasBackend } from "../../app/api.ts";
import { useNavigation } from "../../app/navigation-store.ts";
import { ExportMenu } from "./export-menu.tsx";
import { filterRuns, libraryTags } from "./run-filter.ts";
import { RunSearchField } from "./run-search-field.tsx";
import { RunTable } from "./run-table.tsx";
import { useRuns } from "./runs-store.ts";

/** The results library: every stored run, searchable, editable, and the way into detail and compare. */
export function RunsView() {
  const { t } = useTranslation("runs");
  const navigate = useNavigation((state) => state.navigate);
  const runs = useRuns((state) => state.runs);
  const loading = useRuns((state) => state.loading);
  const error = useRuns((state) => state.error);
  const query = useRuns((state) => state.query);
  const tag = useRuns((state) => state.tag);
  const selected = useRuns((state) => state.selected);
  const { load, setQuery, setTag, setSelected, dismissError } = useRuns.getState();

  // Entering the library shows what finished since (a run, another window, the CLI), and a run
  // that finishes while it is open joins it.
  useEffect(() => {
    void useRuns.getState().load();
    if (!hasBackend()) return;
    return api().onRunEvent((event) => {
      if (event.type === "finished") void useRuns.getState().load();
    });
  }, []);

  const shown = useMemo(() => filterRuns(runs, { query, tag }), [runs, query, tag]);
  const tags = useMemo(() => libraryTags(runs), [runs]);
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

      <div className="toolbar filter-bar">
        <RunSearchField
          testId="runs-search"
          label={t("library.search")}
          placeholder={t("library.searchPlaceholder")}
          value={query}
          onChange={setQuery}
        />
        <label className="inline-field">
          <span>{t("library.tag")}</span>
          <select
            data-testid="runs-tag-filter"
            value={tag ?? ""}
            onChange={(event) => setTag(event.target.value || null)}
          >
            <option value="">{t("library.allTags")}</option>
            {tags.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <span className="toolbar-spacer" />
        <span className="muted" data-testid="runs-selected-count" data-count={selectedIds.length}>
          {t("library.selected", { n: selectedIds.length })}
        </span>
        {selectedIds.length > 0 ? (
          <button type="button" className="ghost small" onClick={() => setSelected([])}>
            {t("library.clearSelection")}
          </button>
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
          <button
            type="button"
            onClick={() => {
              setQuery("");
              setTag(null);
            }}
          >
            {t("library.clearSearch")}
          </button>
        </div>
      ) : (
        <RunTable runs={shown} />
      )}
    </section>
  );
}
