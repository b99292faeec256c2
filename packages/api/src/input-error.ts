import type { CodedMessage } from "./coded-message.ts";
import { fieldError, formatFieldErrors, type FieldError } from "./field-error.ts";

/**
 * Bad input a user can fix: a spec field, credentials, an endpoint that cannot be reached, a
 * missing bucket, a run id the library does not hold. Each problem names its field; the CLI
 * prints them and exits with code 2, and an app call answers them as the fields at fault.
 */
export class InputError extends Error {
  readonly problems: FieldError[];

  constructor(problems: FieldError[]) {
    super(formatFieldErrors(problems));
    this.name = "InputError";
    this.problems = problems;
  }

  /** One problem: a coded message a UI can translate, or English only. */
  static of(field: string, message: CodedMessage | string): InputError {
    return new InputError([
      typeof message === "string" ? { field, message } : fieldError(field, message),
    ]);
  }
}
