import { useState } from "react";
import { useTranslation } from "react-i18next";

/** Edits a run's notes; saved only on Save, so a half-typed thought is never stored. */
export function NotesForm({
  notes,
  onSave,
  onDone,
}: {
  notes: string;
  onSave: (notes: string) => Promise<boolean>;
  onDone: () => void;
}) {
  const { t } = useTranslation("runs");
  const [draft, setDraft] = useState(notes);
  const [saving, setSaving] = useState(false);
  return (
    <form
      className="notes-form"
      onSubmit={async (event) => {
        event.preventDefault();
        setSaving(true);
        const saved = await onSave(draft);
        setSaving(false);
        if (saved) onDone();
      }}
    >
      <textarea
        aria-label={t("edit.notes")}
        data-testid="run-notes-input"
        placeholder={t("edit.notesPlaceholder")}
        rows={4}
        maxLength={10_000}
        value={draft}
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
      />
      <div className="toolbar">
        <button
          type="submit"
          className="primary small"
          data-testid="run-notes-save"
          disabled={saving}
        >
          {t("edit.save")}
        </button>
        <button type="button" className="ghost small" onClick={onDone}>
          {t("edit.cancel")}
        </button>
      </div>
    </form>
  );
}
