import { AppError, type FieldError } from "@taillab/api";
import { errorText, fieldLine, sayNow, type Said } from "./said.ts";

/** A form's errors: the ones it can show at a field, and the rest for a banner. */
export interface MappedErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  /** Errors no field of the form shows, as "field: message". */
  other: string[];
}

/**
 * Puts the backend's field errors (named by their path in the call's input) at a form's fields,
 * said in the UI's language by `say`. `place` says which form field shows an error and what it
 * says there (the error itself, or it about one value), or null when none does. Several errors
 * at one field are joined, so none is hidden.
 */
export function mapFieldErrors<F extends string>(
  errors: readonly FieldError[],
  place: (error: FieldError) => { field: F; said: Said } | null,
  say: (said: Said) => string = sayNow,
): MappedErrors<F> {
  const mapped: MappedErrors<F> = { fields: {}, other: [] };
  for (const error of errors) {
    const placed = place(error);
    if (!placed) {
      mapped.other.push(fieldLine(error, say));
      continue;
    }
    const text = say(placed.said);
    const previous = mapped.fields[placed.field];
    mapped.fields[placed.field] = previous ? `${previous}; ${text}` : text;
  }
  return mapped;
}

/**
 * The field errors a failed call carried (none for a failure that is not about the input). The
 * hosts answer envelopes and app/api.ts's client rebuilds them as this bundle's AppError.
 */
export function fieldErrorsOf(error: unknown): FieldError[] {
  return error instanceof AppError ? error.fields : [];
}

/**
 * Where a failed call's reasons show: each at its field, and in a banner whatever no field shows
 * (the call's own message when none is at a field). `allAtFields`: the banner need only say
 * "fix the marked fields".
 */
export function placeFailure<F extends string>(
  mapped: MappedErrors<F>,
  error: unknown,
): { banner: string | null; allAtFields: boolean } {
  const atFields = Object.keys(mapped.fields).length > 0;
  return {
    banner: mapped.other.length > 0 ? mapped.other.join("\n") : atFields ? null : errorText(error),
    allAtFields: atFields && mapped.other.length === 0,
  };
}
