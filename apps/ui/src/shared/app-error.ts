import { AppError, type FieldError } from "@taillab/api";

/** A failed call as a message and the errors per field, for a form that keeps what was typed. */
export interface ShownError {
  message: string;
  fields: Record<string, string>;
}

export function toShownError(error: unknown): ShownError {
  const fields: FieldError[] = error instanceof AppError ? error.fields : [];
  return {
    message: error instanceof Error ? error.message : String(error),
    fields: Object.fromEntries(fields.map((field) => [field.field, field.message])),
  };
}
