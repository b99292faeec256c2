import { Field, WithUnit } from "../../shared/field.tsx";
import { useExperimentBuilder } from "./experiment-builder-store.ts";
import type { ErrorField, ExperimentForm } from "./experiment-form.ts";

/** The draft's fields that a text box edits as typed. */
type TextField = {
  [F in keyof ExperimentForm]: ExperimentForm[F] extends string ? F : never;
}[keyof ExperimentForm];

interface DraftInputProps {
  field: TextField;
  testId: string;
  /** A short number with its unit beside it (`%`, `ms`, or `p` before it). */
  unit?: string;
  unitBefore?: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** What the box shows when not the field's value (e.g. empty while it does not apply). */
  shown?: string;
  /** The box's name when it is not the first control of its label (which names only that one). */
  ariaLabel?: string;
}

/** A text box bound to one field of the draft: typing sets it, as the form's code reads it. */
export function DraftInput({
  field,
  testId,
  unit,
  unitBefore,
  disabled,
  placeholder,
  shown,
  ariaLabel,
}: DraftInputProps) {
  const value = useExperimentBuilder((state) => state.form[field]);
  const setField = useExperimentBuilder((state) => state.setField);
  const input = (
    <input
      data-testid={testId}
      className={unit ? "mono short" : "mono"}
      inputMode={unit ? "decimal" : undefined}
      value={shown ?? value}
      disabled={disabled}
      placeholder={placeholder}
      aria-label={ariaLabel}
      spellCheck={false}
      onChange={(event) => setField(field, event.target.value)}
    />
  );
  return unit ? (
    <WithUnit unit={unit} before={unitBefore}>
      {input}
    </WithUnit>
  ) : (
    input
  );
}

/** `DraftInput` under its label, with its hint, or the error the backend gave that field. */
export function DraftField({
  label,
  hint,
  ...input
}: DraftInputProps & { field: TextField & ErrorField; label: string; hint?: string }) {
  const error = useExperimentBuilder((state) => state.fieldErrors[input.field]);
  return (
    <Field label={label} error={error} hint={hint}>
      <DraftInput {...input} />
    </Field>
  );
}
