import { z } from "zod";

/** A bad-input message a user can act on: which field, and what was expected. */
export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

/**
 * A value checked against a schema, its problems as field errors. The input is reported in each
 * issue, so a value of the wrong type is told apart from a missing one.
 */
export function parseFields<T>(
  schema: z.ZodType<T>,
  value: unknown,
  wholeInput = "input",
): { ok: true; value: T } | { ok: false; errors: FieldError[] } {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: parsed.error.issues.map((i) => issueToFieldError(i, wholeInput)) };
}

/** A schema issue as a field error, the field written as a user would (`endpoints[0].url`). */
export function issueToFieldError(issue: z.core.$ZodIssue, wholeInput = "input"): FieldError {
  const field = formatFieldPath(issue.path) || wholeInput;
  if (issue.code === "invalid_type" && issue.input === undefined) {
    return { field, message: "is required" };
  }
  if (issue.code === "invalid_type" && isZodDefault(issue.message)) {
    return {
      field,
      message: `expected ${typeNoun(issue.expected)}, got ${describeValue(issue.input)}`,
    };
  }
  return { field, message: issue.message };
}

/** zod's own wording ("Invalid input: expected int, received number"), not a schema's message. */
function isZodDefault(message: string): boolean {
  return message.startsWith("Invalid input");
}

const TYPE_NOUNS: Record<string, string> = {
  int: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

function typeNoun(expected: string): string {
  return TYPE_NOUNS[expected] ?? expected;
}

/** A value as a user would recognise it, short enough for one line. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
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
