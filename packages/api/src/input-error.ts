import { formatFieldErrors, type FieldError } from "./field-error.ts";

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

  static of(field: string, message: string): InputError {
    return new InputError([{ field, message }]);
  }
}
