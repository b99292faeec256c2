import type { RunDetail } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { useRunNameText } from "../experiments/experiment-text.ts";
import { useSettings } from "../../app/settings-store.ts";
import { NameForm, RenameButton } from "./name-form.tsx";
import { NotesForm } from "./notes-form.tsx";
import { formatRunDate } from "./run-date.ts";
import { useRunEditing } from "./run-editing.ts";
import { SpecSummary } from "./spec-summary.tsx";
import { ImportedBadge, ImportedFacts } from "./imported-run.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { TagList } from "./tag-list.tsx";

/** Who, what and where of a run, with its name, tags and notes editable in place. */
export function RunHeader({ detail, actions }: { detail: RunDetail; actions: React.ReactNode }) {
  const { t } = useTranslation("runs");
  const language = useSettings((state) => state.language);
  const { meta, summary } = detail;
  const edit = useRunEditing(meta.id);
  const nameText = useRunNameText();
  const server = meta.environment.server ?? summary.server;

  return (
    <header className="card run-header">
      <div className="run-title">
        {edit.renaming ? (
          <NameForm name={meta.name} onSave={edit.rename} onDone={() => edit.setRenaming(false)} />
        ) : (
          <>
            <h1 data-testid="run-name">{meta.name ? nameText(meta.name) : meta.id}</h1>
            <RenameButton onClick={() => edit.setRenaming(true)} />
          </>
        )}
        <span className="toolbar-spacer" />
        {actions}
      </div>
      <div className="run-badges">
        <StatusBadge status={meta.status} />
        {meta.imported ? <ImportedBadge tool={meta.imported.tool} /> : null}
        {/* A live session names every mode its knobs ran, not only the spec's. */}
        {[...new Set([summary.mode, ...(summary.markers ?? []).map((m) => m.tuning.mode)])].map(
          (mode) => (
            <span key={mode} className="badge" data-mode={mode} data-testid="run-mode">
              {t(`modes.${mode}`)}
            </span>
          ),
        )}
        <span className="badge">{t(`loops.${summary.loop}`)}</span>
        <span className="muted">{formatRunDate(meta.createdAt, language)}</span>
        <span className="muted mono" title={t("detail.runId")} translate="no">
          {meta.id}
        </span>
      </div>
      <div className="grid-2 run-facts">
        <dl className="facts">
          <dt>{summary.endpointUrls.length > 1 ? t("detail.replicas") : t("detail.endpoint")}</dt>
          <dd className="mono" translate="no" data-testid="run-endpoints">
            {summary.endpointUrls.join(", ") || "—"}
          </dd>
          <dt>{t("detail.server")}</dt>
          <dd translate={server ? "no" : undefined}>{server ?? t("detail.unknown")}</dd>
          {meta.imported ? (
            <ImportedFacts source={meta.imported} />
          ) : (
            <>
              <dt>{t("detail.machine")}</dt>
              <dd translate="no">
                {meta.environment.os} · {meta.environment.cpuModel} ×{meta.environment.cpuCount}
              </dd>
            </>
          )}
          <dt>{t("detail.tags")}</dt>
          <dd>
            <TagList tags={meta.tags} onAdd={edit.addTag} onRemove={edit.removeTag} />
          </dd>
          <dt>{t("detail.notes")}</dt>
          <dd>
            {edit.editingNotes ? (
              <NotesForm
                notes={meta.notes}
                onSave={edit.setNotes}
                onDone={() => edit.setEditingNotes(false)}
              />
            ) : (
              <div className="notes">
                <p className={meta.notes ? "pre-wrap" : "muted"} data-testid="run-notes-text">
                  {meta.notes || t("detail.noNotes")}
                </p>
                <button
                  type="button"
                  className="ghost small"
                  data-testid="run-notes"
                  onClick={() => edit.setEditingNotes(true)}
                >
                  {t("edit.editNotes")}
                </button>
              </div>
            )}
          </dd>
        </dl>
        <SpecSummary
          spec={summary.spec}
          ranOps={
            new Set(
              summary.points.flatMap((point) =>
                point.phases
                  .filter((phase) => phase.requests + phase.errors > 0)
                  .map((phase) => phase.op),
              ),
            )
          }
        />
      </div>
    </header>
  );
}
