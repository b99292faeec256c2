import type { RunIndexEntry } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { useRunNameText } from "../experiments/experiment-text.ts";
import { useNavigation } from "../../app/navigation-store.ts";
import { useSettings } from "../../app/settings-store.ts";
import { ConfirmButton } from "../../shared/confirm-button.tsx";
import { HeadlineCell } from "./headline-cells.tsx";
import { NameForm, RenameButton } from "./name-form.tsx";
import { NotesForm } from "./notes-form.tsx";
import { pointsText } from "./points-text.ts";
import { formatRunDate } from "./run-date.ts";
import { useRunEditing } from "./run-editing.ts";
import { useRuns } from "./runs-store.ts";
import { ImportedBadge } from "./imported-run.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { TagList } from "./tag-list.tsx";

/** A stopped or interrupted sweep that finished only some of its points. */
function ranPart(run: RunIndexEntry): boolean {
  return (
    run.pointsFinished !== null && run.points.length > 1 && run.pointsFinished < run.points.length
  );
}

/** Columns of a row, for the notes editor that spans them all. */
const RUN_TABLE_COLUMNS = 10;

/** One run in the library: its figures at a glance, and the edits a user makes to it in place. */
export function RunRow({ run, selected }: { run: RunIndexEntry; selected: boolean }) {
  const { t } = useTranslation("runs");
  const language = useSettings((state) => state.language);
  const navigate = useNavigation((state) => state.navigate);
  const toggleSelected = useRuns((state) => state.toggleSelected);
  const remove = useRuns((state) => state.remove);
  const edit = useRunEditing(run.id);
  const nameText = useRunNameText();
  const label = run.name ? nameText(run.name) : run.id;
  const flagged =
    run.status === "interrupted" ||
    run.status === "failed" ||
    run.status === "serverLost" ||
    run.damage !== null;

  return (
    <>
      <tr
        data-testid="run-row"
        data-run-id={run.id}
        data-status={run.status}
        data-name={run.name}
        data-mode={run.mode}
        data-points={run.points.length}
        data-endpoint={run.endpoint ?? undefined}
        aria-selected={selected}
        className={flagged ? `run-row flagged ${run.status}` : "run-row"}
      >
        <td className="select-cell">
          <input
            type="checkbox"
            data-testid="run-select"
            aria-label={t("library.selectRun", { name: label })}
            checked={selected}
            onChange={() => toggleSelected(run.id)}
          />
        </td>
        <td className="name-cell">
          {edit.renaming ? (
            <NameForm name={run.name} onSave={edit.rename} onDone={() => edit.setRenaming(false)} />
          ) : (
            <button
              type="button"
              className="link"
              data-testid="run-open"
              onClick={() => navigate({ view: "run", runId: run.id })}
            >
              {label}
            </button>
          )}
          {run.notes ? (
            <p className="notes-preview muted" title={run.notes}>
              {run.notes}
            </p>
          ) : null}
          <div className="row-tools">
            <TagList tags={run.tags} onAdd={edit.addTag} onRemove={edit.removeTag} />
            <span className="row-actions-bar">
              <RenameButton onClick={() => edit.setRenaming(true)} />
              <button
                type="button"
                className="ghost small"
                data-testid="run-notes"
                aria-expanded={edit.editingNotes}
                onClick={() => edit.setEditingNotes(!edit.editingNotes)}
              >
                {t("edit.notes")}
              </button>
              <ConfirmButton
                label={t("edit.delete")}
                question={t("edit.deleteQuestion")}
                testId="run-delete"
                onConfirm={() => void remove(run.id)}
              />
            </span>
          </div>
        </td>
        <td className="nowrap">{formatRunDate(run.createdAt, language)}</td>
        <td>
          <StatusBadge status={run.status} />
          {run.importedFrom ? <ImportedBadge tool={run.importedFrom} /> : null}
          {run.damage ? (
            <span
              className="badge danger"
              data-testid="run-damaged"
              title={run.damage.problems.join("\n")}
            >
              ✕ {t("status.damaged")}
            </span>
          ) : null}
        </td>
        <td>
          <span className="badge" data-mode={run.mode}>
            {t(`modes.${run.mode}`)}
          </span>
          <span className="cell-note muted">{t(`loops.${run.loop}`)}</span>
        </td>
        <td className="points-cell">
          {pointsText(run.points, t)}
          {ranPart(run) ? (
            <span
              className="cell-note warning-text"
              data-testid="run-points-ran"
              data-ran={run.pointsRun ?? undefined}
              data-finished={run.pointsFinished ?? undefined}
              data-count={run.points.length}
            >
              {run.pointsRun === 0
                ? t("library.stoppedBeforeFirst")
                : t("library.pointsRan", {
                    ran: run.pointsRun,
                    finished: run.pointsFinished,
                    count: run.points.length,
                  })}
            </span>
          ) : null}
        </td>
        <HeadlineCell spans={run.headlineSpan} figure="p50Ms" />
        <HeadlineCell spans={run.headlineSpan} figure="p99Ms" />
        <HeadlineCell spans={run.headlineSpan} figure="p999Ms" />
        <HeadlineCell spans={run.headlineSpan} figure="opsPerSec" />
      </tr>
      {edit.editingNotes ? (
        <tr className="notes-row" data-testid="run-notes-row" data-run-id={run.id}>
          <td />
          <td colSpan={RUN_TABLE_COLUMNS - 1}>
            <NotesForm
              notes={run.notes}
              onSave={edit.setNotes}
              onDone={() => edit.setEditingNotes(false)}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}
