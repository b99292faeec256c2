/**
 * Writes what a stored run's HTML report draws from (loadRunReportInput) as JSON, for a test
 * fixture of a real run: `node packages/backend/src/test-support/write-report-input.ts
 * RESULTS_DIR RUN_ID OUT.json`.
 */
import { writeFile } from "node:fs/promises";
import { openResultsStore } from "@taillab/store";
import { loadRunReportInput } from "../run-report.ts";

const [resultsDir, runId, out] = process.argv.slice(2);
if (!resultsDir || !runId || !out) {
  console.error("usage: write-report-input.ts RESULTS_DIR RUN_ID OUT.json");
  process.exit(2);
}
const store = await openResultsStore(resultsDir, { create: false });
const input = await loadRunReportInput(store, runId);
await writeFile(out, `${JSON.stringify(input)}\n`);
