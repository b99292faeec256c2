export * from "./csv.ts";
export * from "./requests-csv.ts";
export * from "./s3bench-text.ts";
