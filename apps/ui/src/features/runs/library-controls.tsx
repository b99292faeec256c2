import type { RunIndexEntry } from "@taillab/api";
import { RunStatusSchema } from "@taillab/api";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  libraryEndpoints,
  libraryTags,
  RUN_KINDS,
  RUN_SORT_KEYS,
  TESTBED_ENDPOINT,
} from "./run-filter.ts";
import { RunSearchField } from "./run-search-field.tsx";
import { useRuns } from "./runs-store.ts";
import { useTagText } from "./series-tag.ts";

/** The library's search, filters, sort and layout: every control a keyboard reaches in turn. */
export function LibraryControls({ runs }: { runs: readonly RunIndexEntry[] }) {
  const { t } = useTranslation("runs");
  const filter = useRuns((state) => state.filter);
  const sort = useRuns((state) => state.sort);
  const compact = useRuns((state) => state.compact);
  const { setFilter, setSort, setCompact } = useRuns.getState();
  const tagText = useTagText();
  const tags = useMemo(() => libraryTags(runs), [runs]);
  const endpoints = useMemo(() => libraryEndpoints(runs), [runs]);
  const order = t(sort.descending ? "library.descending" : "library.ascending");

  return (
    <div className="toolbar filter-bar">
      <RunSearchField
        testId="runs-search"
        label={t("library.search")}
        placeholder={t("library.searchPlaceholder")}
        value={filter.query}
        onChange={(query) => setFilter({ query })}
      />
      <label className="inline-field">
        <span>{t("library.status")}</span>
        <select
          data-testid="runs-status-filter"
          value={filter.status ?? ""}
          onChange={(event) =>
            setFilter({ status: RunStatusSchema.safeParse(event.target.value).data ?? null })
          }
        >
          <option value="">{t("library.allStatuses")}</option>
          {RunStatusSchema.options.map((status) => (
            <option key={status} value={status}>
              {t(`status.${status}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>{t("library.endpoint")}</span>
        <select
          data-testid="runs-endpoint-filter"
          value={filter.endpoint ?? ""}
          onChange={(event) => setFilter({ endpoint: event.target.value || null })}
        >
          <option value="">{t("library.allEndpoints")}</option>
          {endpoints.map((endpoint) => (
            <option key={endpoint} value={endpoint}>
              {endpoint === TESTBED_ENDPOINT ? t("library.testbed") : endpoint}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>{t("library.kind")}</span>
        <select
          data-testid="runs-kind-filter"
          value={filter.kind ?? ""}
          onChange={(event) =>
            setFilter({ kind: RUN_KINDS.find((kind) => kind === event.target.value) ?? null })
          }
        >
          <option value="">{t("library.allKinds")}</option>
          {RUN_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`library.kinds.${kind}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>{t("library.tag")}</span>
        <select
          data-testid="runs-tag-filter"
          value={filter.tag ?? ""}
          onChange={(event) => setFilter({ tag: event.target.value || null })}
        >
          <option value="">{t("library.allTags")}</option>
          {tags.map((name) => (
            <option key={name} value={name}>
              {tagText(name)}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>{t("library.sortBy")}</span>
        <select
          data-testid="runs-sort"
          value={sort.key}
          onChange={(event) =>
            setSort({
              ...sort,
              key: RUN_SORT_KEYS.find((key) => key === event.target.value) ?? sort.key,
            })
          }
        >
          {RUN_SORT_KEYS.map((key) => (
            <option key={key} value={key}>
              {t(`library.sortKeys.${key}`)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="ghost small"
        data-testid="runs-sort-direction"
        data-descending={sort.descending}
        aria-label={t("library.sortDirection", { order })}
        onClick={() => setSort({ ...sort, descending: !sort.descending })}
      >
        {sort.descending ? "↓" : "↑"} {order}
      </button>
      <label className="inline-check">
        <input
          type="checkbox"
          data-testid="runs-compact"
          checked={compact}
          onChange={(event) => setCompact(event.target.checked)}
        />
        <span>{t("library.compact")}</span>
      </label>
    </div>
  );
}
