import type { FieldError } from "@taillab/api";

/** A form's errors: the ones it can show at a field, and the rest for a banner. */
export interface MappedErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  /** Errors no field of the form shows, as "field: message". */
  other: string[];
}

/**
 * Puts the backend's field errors (named by their path in the call's input) at a form's fields.
 * `place` says which form field shows an error and how, or null when none does. Several errors
 * at one field are joined, so none is hidden.
 */
export function mapFieldErrors<F extends string>(
  errors: readonly FieldError[],
  place: (error: FieldError) => { field: F; message: string } | null,
): MappedErrors<F> {
  const mapped: MappedErrors<F> = { fields: {}, other: [] };
  for (const error of errors) {
    const placed = place(error);
    if (!placed) {
      mapped.other.push(`${error.field}: ${error.message}`);
      continue;
    }
    const previous = mapped.fields[placed.field];
    mapped.fields[placed.field] = previous ? `${previous}; ${placed.message}` : placed.message;
  }
  return mapped;
}

/**
 * The field errors a failed call carried (none for a failure that is not about the input).
 * Read by shape, not `instanceof AppError`: the host's bridge script bundles its own copy of
 * the AppError class, so an error it throws is not an instance of the UI bundle's.
 */
export function fieldErrorsOf(error: unknown): FieldError[] {
  const fields = (error as { fields?: unknown } | null)?.fields;
  return Array.isArray(fields) ? (fields as FieldError[]) : [];
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
