import { RunSpecSchema, type RunSpec } from "@taillab/api";
import { parseKeyChoice } from "./key-chooser.ts";
import { parseOperationMix } from "./operation-mix.ts";
import { parseRangeChoice } from "./range-choice.ts";
import { parseSizeDistribution } from "./size-distribution.ts";
import type { TextParseResult } from "./workload-text.ts";

/** A bad-input message a user can act on: which field, and what was expected. */
export interface FieldError {
  field: string;
  message: string;
}

type SpecIssue = NonNullable<ReturnType<typeof RunSpecSchema.safeParse>["error"]>["issues"][number];

export type RunSpecParseResult = { ok: true; spec: RunSpec } | { ok: false; errors: FieldError[] };

export function parseRunSpec(input: unknown): RunSpecParseResult {
  const parsed = RunSpecSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map(toFieldError) };
  const errors = workloadErrors(parsed.data);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, spec: parsed.data };
}

/** The workload's texts, read by the parsers that will run them, so errors name the field. */
function workloadErrors(spec: RunSpec): FieldError[] {
  const { workload } = spec;
  if (!workload) return [];
  const checks: [string, TextParseResult<unknown> | null][] = [
    ["workload.ops", parseOperationMix(workload.ops)],
    ["workload.keys", parseKeyChoice(workload.keys)],
    ["workload.range", workload.range === undefined ? null : parseRangeChoice(workload.range)],
    ["workload.sizes", workload.sizes === undefined ? null : parseSizeDistribution(workload.sizes)],
  ];
  const errors = checks.flatMap(([field, result]) =>
    result && !result.ok ? [{ field, message: result.reason }] : [],
  );
  if (workload.multipartPartBytes < MIN_MULTIPART_PART_BYTES) {
    errors.push({
      field: "workload.multipartPartBytes",
      message: "must be at least 5MiB, S3's smallest part (the last part may be smaller)",
    });
  }
  return errors;
}

const MIN_MULTIPART_PART_BYTES = 5 * 1024 * 1024;

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
