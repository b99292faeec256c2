export * from "./byte-size.ts";
export * from "./run-spec.ts";
export * from "./results.ts";
