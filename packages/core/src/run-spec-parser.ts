import { RunSpecSchema, type RunSpec } from "@taillab/api";

/** A bad-input message a user can act on: which field, and what was expected. */
export interface FieldError {
  field: string;
  message: string;
}

type SpecIssue = NonNullable<ReturnType<typeof RunSpecSchema.safeParse>["error"]>["issues"][number];

export type RunSpecParseResult = { ok: true; spec: RunSpec } | { ok: false; errors: FieldError[] };

export function parseRunSpec(input: unknown): RunSpecParseResult {
  const parsed = RunSpecSchema.safeParse(input);
  if (parsed.success) return { ok: true, spec: parsed.data };
  return { ok: false, errors: parsed.error.issues.map(toFieldError) };
}

function toFieldError(issue: SpecIssue): FieldError {
  const field = formatPath(issue.path) || "spec";
  if (issue.code === "invalid_type" && issue.input === undefined) {
    return { field, message: "is required" };
  }
  return { field, message: issue.message };
}

/** `endpoints[0].url`, as a user would write it. */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index > 0 ? "." : ""}${String(segment)}`,
    )
    .join("");
}

export function formatFieldErrors(errors: readonly FieldError[]): string {
  return errors.map((error) => `${error.field}: ${error.message}`).join("\n");
}
