import { useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * A destructive button that asks once more in place, so a stray click (or a lecturer's remote)
 * cannot delete anything; the question's own button is the only one that acts.
 */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  testId,
  disabled,
}: {
  label: string;
  question?: string;
  onConfirm: () => void;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation("common");
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="danger ghost"
        data-testid={testId}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span
      className="confirm"
      role="group"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          setAsking(false);
        }
      }}
    >
      <span className="confirm-question">{question ?? t("confirmRemove")}</span>
      <button
        type="button"
        className="danger"
        data-testid={`${testId}-confirm`}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {label}
      </button>
      <button
        type="button"
        className="ghost"
        data-testid={`${testId}-cancel`}
        autoFocus
        onClick={() => setAsking(false)}
      >
        {t("cancel")}
      </button>
    </span>
  );
}
