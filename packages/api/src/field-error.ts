import { z } from "zod";
import {
  codeOf,
  coded,
  codedTextShape,
  englishOf,
  isCodedMessage,
  type CodedMessage,
  type MessageParam,
} from "./coded-message.ts";

/**
 * A bad-input message a user can act on: which field, and what was expected. `message` is in
 * English; `code` and `params` say the same as data (coded-message.ts), when it has a code.
 */
export const FieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
  ...codedTextShape,
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** `field` is wrong as `message` says: its English, its code and params. */
export function fieldError(field: string, message: CodedMessage): FieldError {
  return { field, message: englishOf(message), ...codeOf(message) };
}

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

/**
 * A schema issue as a field error, the field written as a user would (`endpoints[0].url`): a
 * coded issue (codedIssue) as it is, zod's own kinds of issue in words of ours with a code, any
 * other message as written (without a code).
 */
export function issueToFieldError(issue: z.core.$ZodIssue, wholeInput = "input"): FieldError {
  const field = formatFieldPath(issue.path) || wholeInput;
  const message = issueMessage(issue);
  return message ? fieldError(field, message) : { field, message: issue.message };
}

/** What an issue says as a coded message, or null for a message a schema wrote out in English. */
export function issueMessage(issue: z.core.$ZodIssue): CodedMessage | null {
  if (issue.code === "custom" && isCodedMessage(issue.params)) return issue.params;
  // strictObject's unknown fields carry their message as params too.
  const params: unknown = (issue as { params?: unknown }).params;
  if (issue.code === "unrecognized_keys" && isCodedMessage(params)) return params;
  if (issue.code === "invalid_type" && issue.input === undefined) return coded("required");
  return isZodDefault(issue.message) ? zodIssueMessage(issue) : null;
}

/** zod's own wording ("Invalid input: expected int, received number"), not a schema's message. */
function isZodDefault(message: string): boolean {
  return /^(Invalid|Too small|Too big)\b/.test(message);
}

function zodIssueMessage(issue: z.core.$ZodIssue): CodedMessage | null {
  switch (issue.code) {
    case "invalid_type":
      return coded("expectedKind", {
        expected: kindOf(issue.expected),
        got: describeValue(issue.input),
      });
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") {
        return min <= 1 ? coded("required") : coded("atLeast", { min });
      }
      if (issue.origin === "array" || issue.origin === "set") return coded("listTooShort", { min });
      return issue.inclusive === false ? coded("above", { min }) : coded("atLeast", { min });
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return coded("textTooLong", { max });
      if (issue.origin === "array" || issue.origin === "set") return coded("listTooLong", { max });
      return issue.inclusive === false ? coded("below", { max }) : coded("atMost", { max });
    }
    case "invalid_value":
      return coded("oneOf", {
        values: issue.values.map((value) => JSON.stringify(value)).join(", "),
      });
    case "invalid_union":
      return coded("invalidValue");
    default:
      return null;
  }
}

const KINDS: Record<string, CodedMessage> = {
  int: coded("kindWholeNumber"),
  number: coded("kindNumber"),
  string: coded("kindText"),
  boolean: coded("kindBoolean"),
  array: coded("kindList"),
  object: coded("kindObject"),
};

function kindOf(expected: string): MessageParam {
  return KINDS[expected] ?? expected;
}

/** A value as a user would recognise it, short enough for one line. */
export function describeValue(value: unknown): MessageParam {
  if (Array.isArray(value)) return coded("kindList");
  if (value === null) return coded("valueNull");
  if (typeof value === "object") return coded("kindObject");
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

/** Errors of a part of an input, named by their path in the whole (`url` → `draft.url`). */
export function nestedFieldErrors(parent: string, errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) => ({ ...error, field: `${parent}.${error.field}` }));
}
