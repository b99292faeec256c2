import type { ReactNode } from "react";

/**
 * A group of controls under one label (checkboxes, radio cards), with the group's hint or error;
 * a fieldset, since one <label> may hold only one control.
 */
export function FieldGroup({
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
    <fieldset
      className="field field-group"
      data-invalid={error ? "true" : undefined}
      data-testid={testId}
    >
      <legend>{label}</legend>
      <div className="field-group-controls">{children}</div>
      {error ? (
        <em className="field-error" role="alert">
          {error}
        </em>
      ) : hint ? (
        <small className="field-hint">{hint}</small>
      ) : null}
    </fieldset>
  );
}

/**
 * An input with its unit beside it (`30` ms, p`95`), so the box holds only the number.
 * `before` puts the unit first, as percentiles are written.
 */
export function WithUnit({
  unit,
  before = false,
  children,
}: {
  unit: string;
  before?: boolean;
  children: ReactNode;
}) {
  const label = (
    <span className="unit" aria-hidden="true">
      {unit}
    </span>
  );
  return (
    <span className="input-unit">
      {before ? label : null}
      {children}
      {before ? null : label}
    </span>
  );
}
