import type { ReactNode } from "react";

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: ReactNode;
  testId?: string;
}

/** A labelled form control with its hint and, when the backend named this field, its error. */
export function Field({ label, error, hint, children, testId }: FieldProps) {
  return (
    <label className="field" data-invalid={error ? "true" : undefined} data-testid={testId}>
      <span>{label}</span>
      {children}
      <FieldNote error={error} hint={hint} />
    </label>
  );
}

/**
 * A group of controls under one label (checkboxes, radio cards), with the group's hint or error;
 * a fieldset, since one <label> may hold only one control.
 */
export function FieldGroup({ label, error, hint, children, testId }: FieldProps) {
  return (
    <fieldset
      className="field field-group"
      data-invalid={error ? "true" : undefined}
      data-testid={testId}
    >
      <legend>{label}</legend>
      <div className="field-group-controls">{children}</div>
      <FieldNote error={error} hint={hint} />
    </fieldset>
  );
}

/** Under a field: what is wrong with it, else how to fill it in. */
function FieldNote({ error, hint }: Pick<FieldProps, "error" | "hint">) {
  if (error) {
    return (
      <em className="field-error" role="alert">
        {error}
      </em>
    );
  }
  return hint ? <small className="field-hint">{hint}</small> : null;
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
