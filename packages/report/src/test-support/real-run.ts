import type { RunReportInput } from "../html-report.ts";
import input from "./real-run/report-input.json" with { type: "json" };

/**
 * What the report and the app draw of a real stored run (see real-run/README.md): a size sweep
 * on the embedded testbed's stalls profile, 30 requests a phase over a few seconds each.
 */
export const REAL_RUN = input as unknown as RunReportInput;
