import { useTranslation } from "react-i18next";
import { InlineTextForm } from "./inline-text-form.tsx";

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
  return (
    <InlineTextForm
      initial={name}
      label={t("edit.name")}
      maxLength={200}
      testIdPrefix="run-rename"
      submitText={t("edit.save")}
      submitClassName="primary small"
      cancelText={t("edit.cancel")}
      // The same name again is no change: close without asking the backend.
      onSubmit={async (draft) => draft === name || onSave(draft)}
      onDone={onDone}
    />
  );
}

/** Opens the name editor, beside a run's name in its header and in its library row. */
export function RenameButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation("runs");
  return (
    <button type="button" className="ghost small" data-testid="run-rename" onClick={onClick}>
      {t("edit.rename")}
    </button>
  );
}
