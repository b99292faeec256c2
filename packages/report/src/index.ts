export * from "./csv.ts";
export * from "./requests-csv.ts";
export * from "./s3bench-text.ts";
export * from "./summary-csv.ts";
export * from "./run-json.ts";
export * from "./html-report.ts";
export * from "./report-messages.ts";
export * from "./report-format.ts";
