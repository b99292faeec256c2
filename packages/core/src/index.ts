export * from "./run-spec-parser.ts";
export * from "./sweep.ts";
export * from "./latency-histogram.ts";
export * from "./exact-percentile.ts";
export * from "./phase-summary.ts";
