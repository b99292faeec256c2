import { useState } from "react";
import { useTranslation } from "react-i18next";

/** Renames a run in place: Enter saves, Escape cancels; an empty name cannot be saved. */
export function NameForm({
  name,
  onSave,
  onDone,
}: {
  name: string;
  onSave: (name: string) => Promise<boolean>;
  onDone: () => void;
}) {
  const { t } = useTranslation("runs");
  const [draft, setDraft] = useState(name);
  const [saving, setSaving] = useState(false);
  const trimmed = draft.trim();
  const save = async () => {
    if (!trimmed || saving) return;
    if (trimmed === name) return onDone();
    setSaving(true);
    const saved = await onSave(trimmed);
    setSaving(false);
    if (saved) onDone();
  };
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onDone();
      }}
    >
      <input
        aria-label={t("edit.name")}
        data-testid="run-rename-input"
        value={draft}
        maxLength={200}
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
      />
      <button
        type="submit"
        className="primary small"
        data-testid="run-rename-save"
        disabled={!trimmed || saving}
      >
        {t("edit.save")}
      </button>
      <button type="button" className="ghost small" onClick={onDone}>
        {t("edit.cancel")}
      </button>
    </form>
  );
}
