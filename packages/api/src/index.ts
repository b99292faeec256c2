export * from "./byte-size.ts";
export * from "./run-spec.ts";
export * from "./results.ts";
export * from "./duration.ts";
export * from "./tail-options.ts";
export * from "./latency-profile.ts";
export * from "./stored-run.ts";
