import { z } from "zod";

/** A bad-input message a user can act on: which field, and what was expected. */
export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** A schema issue as a field error, the field written as a user would (`endpoints[0].url`). */
export function issueToFieldError(issue: z.core.$ZodIssue, wholeInput = "input"): FieldError {
  const field = formatFieldPath(issue.path) || wholeInput;
  if (issue.code === "invalid_type" && issue.input === undefined) {
    return { field, message: "is required" };
  }
  return { field, message: issue.message };
}

export function formatFieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index > 0 ? "." : ""}${String(segment)}`,
    )
    .join("");
}

export function formatFieldErrors(errors: readonly FieldError[]): string {
  return errors.map((error) => `${error.field}: ${error.message}`).join("\n");
}
