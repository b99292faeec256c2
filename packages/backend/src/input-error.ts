import { formatFieldErrors, type FieldError } from "@taillab/api";

/**
 * Bad input a user can fix: a spec field, credentials, an endpoint that cannot be reached, a
 * missing bucket. Each problem names its field; the CLI prints them and exits with code 2.
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

/** Problems of a form nested in a call's input, named by their path in it (`url` → `draft.url`). */
export function nestedProblems(parent: string, problems: readonly FieldError[]): FieldError[] {
  return problems.map(({ field, message }) => ({ field: `${parent}.${field}`, message }));
}
