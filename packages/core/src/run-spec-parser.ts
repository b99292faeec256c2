import {
  coded,
  credentialVariableErrors,
  fieldError,
  nestedFieldErrors,
  endpointSettingProblems,
  parseFields,
  RunSpecSchema,
  type FieldError,
  type RunSpec,
} from "@taillab/api";
import { parseKeyChoice } from "./key-chooser.ts";
import { S3_MIN_PART_BYTES } from "./s3-limits.ts";
import { parseOperationMix } from "./operation-mix.ts";
import { parseRangeChoice } from "./range-choice.ts";
import { parseSizeDistribution } from "./size-distribution.ts";
import { parseThreshold } from "./threshold.ts";
import type { TextParseResult } from "./workload-text.ts";

export type RunSpecParseResult = { ok: true; spec: RunSpec } | { ok: false; errors: FieldError[] };

export function parseRunSpec(input: unknown): RunSpecParseResult {
  const parsed = parseFields(RunSpecSchema, input, "spec");
  if (!parsed.ok) return parsed;
  const errors = [
    ...credentialErrors(parsed.value),
    ...endpointErrors(parsed.value),
    ...workloadErrors(parsed.value),
    ...thresholdErrors(parsed.value),
  ];
  return errors.length > 0 ? { ok: false, errors } : { ok: true, spec: parsed.value };
}

/** Each threshold, read by the parser that will judge the run by it. */
function thresholdErrors(spec: RunSpec): FieldError[] {
  return (spec.thresholds ?? []).flatMap((text, index) => {
    const parsed = parseThreshold(text);
    return parsed.ok ? [] : [fieldError(`thresholds[${index}]`, parsed.reason)];
  });
}

/** Env references may name credential variables only (see credential-variables.ts in api). */
function credentialErrors(spec: RunSpec): FieldError[] {
  return (spec.endpoints ?? []).flatMap(({ credentials }, index) =>
    credentials.kind === "env"
      ? nestedFieldErrors(`endpoints[${index}].credentials`, credentialVariableErrors(credentials))
      : [],
  );
}

/** Addressing and TLS settings the endpoint's URL cannot honour (api's endpoint-rules.ts). */
function endpointErrors(spec: RunSpec): FieldError[] {
  return (spec.endpoints ?? []).flatMap((endpoint, index) =>
    nestedFieldErrors(`endpoints[${index}]`, endpointSettingProblems(endpoint)),
  );
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
    result && !result.ok ? [fieldError(field, result.reason)] : [],
  );
  if (workload.multipartPartBytes < S3_MIN_PART_BYTES) {
    errors.push(fieldError("workload.multipartPartBytes", coded("multipartPartTooSmall")));
  }
  return errors;
}
