export * from "./bucket-name.ts";
export * from "./byte-size.ts";
export * from "./strict-object.ts";
export * from "./run-spec.ts";
export * from "./spec-field-default.ts";
export * from "./results.ts";
export {
  MIX_WORDS,
  mixPlanningOf,
  OBJECT_WRITES,
  OPERATION_ENTRIES,
  operationLabels,
  operationOfMixWord,
  PART_OPERATIONS,
  type MixWord,
  type OperationLanguage,
} from "./operations/registry.ts";
export type {
  KeySource,
  MixPlanning,
  OperationEntry,
  OperationLabels,
} from "./operations/operation-entry.ts";
export * from "./run-notice.ts";
export * from "./duration.ts";
export * from "./tail-options.ts";
export * from "./latency-profile.ts";
export * from "./stored-run.ts";
export * from "./imported-run.ts";
export * from "./field-error.ts";
export * from "./credential-variables.ts";
export * from "./endpoint-rules.ts";
export * from "./input-error.ts";
export * from "./api-error.ts";
export * from "./app-api.ts";
export * from "./checked-number.ts";
export * from "./coded-message.ts";
export * from "./english-messages.ts";
export * from "./api-method-names.ts";
export * from "./api-client.ts";
export * from "./api-dispatch.ts";
export * from "./app-files.ts";
export * from "./live-tuning.ts";
export * from "./tied-requests.ts";
export * from "./phase-account-delta.ts";
export * from "./distributed-run.ts";
export * from "./code-counts.ts";
export * from "./run-name.ts";
export * from "./client-health.ts";
export * from "./requests-csv-save.ts";
