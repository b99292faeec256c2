import type { ReactNode } from "react";

/** A labelled form control with its hint and, when the backend named this field, its error. */
export function Field({
  label,
  error,
  hint,
  children,
  testId,
}: {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <label className="field" data-invalid={error ? "true" : undefined} data-testid={testId}>
      <span>{label}</span>
      {children}
      {error ? (
        <em className="field-error" role="alert">
          {error}
        </em>
      ) : hint ? (
        <small className="field-hint">{hint}</small>
      ) : null}
    </label>
  );
}
