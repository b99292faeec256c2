import { useState } from "react";

/**
 * One line of text edited in place (a run's name, a new tag): Enter submits, Escape cancels, and
 * an empty value cannot be submitted. `onSubmit` gets the trimmed text and says whether it was
 * taken; only then does the form close.
 */
export function InlineTextForm({
  initial = "",
  label,
  placeholder,
  maxLength,
  testIdPrefix,
  inputClassName,
  submitText,
  submitClassName,
  cancelText,
  onSubmit,
  onDone,
}: {
  initial?: string;
  label: string;
  placeholder?: string;
  maxLength: number;
  /** `${prefix}-input` and `${prefix}-save`, for tests. */
  testIdPrefix: string;
  inputClassName?: string;
  submitText: string;
  submitClassName: string;
  /** A Cancel button beside the submit one; Escape cancels either way. */
  cancelText?: string;
  onSubmit: (value: string) => Promise<boolean>;
  onDone: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const trimmed = draft.trim();
  const submit = async () => {
    if (!trimmed || saving) return;
    setSaving(true);
    const taken = await onSubmit(trimmed);
    setSaving(false);
    if (taken) onDone();
  };
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onDone();
      }}
    >
      <input
        className={inputClassName}
        aria-label={label}
        placeholder={placeholder}
        data-testid={`${testIdPrefix}-input`}
        value={draft}
        maxLength={maxLength}
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
      />
      <button
        type="submit"
        className={submitClassName}
        data-testid={`${testIdPrefix}-save`}
        disabled={!trimmed || saving}
      >
        {submitText}
      </button>
      {cancelText ? (
        <button type="button" className="ghost small" onClick={onDone}>
          {cancelText}
        </button>
      ) : null}
    </form>
  );
}
