export * from "./credentials.ts";
export * from "./input-error.ts";
export * from "./run-benchmark.ts";
export * from "./run-folder.ts";
export * from "./testbed-service.ts";
