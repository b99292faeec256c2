import { RunSummarySchema } from "@taillab/api";
import { openResultsStore } from "@taillab/backend";
import { REQUESTS_CSV_HEADER, REQUESTS_CSV_CHUNK_ROWS, requestsCsvRows } from "@taillab/report";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * `taillab report --format csv --requests` streams the run's records chunk by chunk; its bytes are
 * those the whole-file export wrote (the header, then each record's row in the log's order).
 */

let library = "";
beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), "taillab-requests-csv-"));
});
afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

describe("taillab report --format csv --requests", () => {
  it("of a real run of several chunks: byte for byte the whole-file export, to a file and to stdout", async () => {
    const env = { TAILLAB_RESULTS_DIR: library };
    const run = await runCli(
      ["run", "--clients", "4", "--samples", "1500", "--size", "1KiB", "--json"],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const { runId } = RunSummarySchema.parse(JSON.parse(run.stdout));

    const store = await openResultsStore(library);
    let expected = REQUESTS_CSV_HEADER;
    let records = 0;
    for await (const { pointIndex, record } of store.records(runId)) {
      expected += requestsCsvRows(pointIndex, [record]);
      records += 1;
    }
    expect(records).toBeGreaterThan(2 * REQUESTS_CSV_CHUNK_ROWS);

    const out = join(library, "..", `${runId}-requests.csv`);
    const written = await runCli(
      ["report", runId, "--format", "csv", "--requests", "--out", out],
      env,
    );
    expect(written.code, written.stderr).toBe(0);
    expect(await readFile(out, "utf8")).toBe(expected);
    await rm(out);

    const printed = await runCli(["report", runId, "--format", "csv", "--requests"], env);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(expected);
  });
});
