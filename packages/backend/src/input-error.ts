import { InputError, type FieldError } from "@taillab/api";

export { InputError };

/** Problems of a form nested in a call's input, named by their path in it (`url` → `draft.url`). */
export function nestedProblems(parent: string, problems: readonly FieldError[]): FieldError[] {
  return problems.map(({ field, message }) => ({ field: `${parent}.${field}`, message }));
}
