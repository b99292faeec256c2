import { RunSummarySchema } from "@taillab/api";
import { OVER_TIME_CSV_COLUMNS } from "@taillab/report";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/** `taillab report --format csv --per-second`: percentiles over time, each with its interval. */

let library = "";
beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), "taillab-per-second-csv-"));
});
afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

describe("taillab report --format csv --per-second", () => {
  it("writes one row per second of each operation, with its percentiles' intervals", async () => {
    const env = { TAILLAB_RESULTS_DIR: library };
    const run = await runCli(
      ["run", "--clients", "2", "--samples", "300", "--size", "1KiB", "--json"],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const { runId } = RunSummarySchema.parse(JSON.parse(run.stdout));
    const printed = await runCli(["report", runId, "--format", "csv", "--per-second"], env);
    expect(printed.code, printed.stderr).toBe(0);
    const [header, ...rows] = printed.stdout.trimEnd().split("\r\n");
    expect(header?.split(",")).toEqual(OVER_TIME_CSV_COLUMNS);
    const column = (name: string) => OVER_TIME_CSV_COLUMNS.indexOf(name);
    const cells = rows.map((row) => row.split(","));
    // Each phase (PUT, GET, DELETE) has at least one second, and each second its p50's interval.
    expect(new Set(cells.map((row) => row[column("Operation")]))).toEqual(
      new Set(["PUT", "GET", "DELETE"]),
    );
    for (const row of cells) {
      const p50 = Number(row[column("50th %ile (ms)")]);
      expect(Number(row[column("50th %ile 95% Low (ms)")])).toBeLessThanOrEqual(p50);
      const high = row[column("50th %ile 95% High (ms)")];
      expect(high === "inf" || Number(high) >= p50).toBe(true);
    }
  });

  it.each([
    [["--per-second"], "html"],
    [["--format", "csv", "--requests", "--per-second"], "with --requests"],
  ])("refuses %j in one line naming the flag (exit 2)", async (flags) => {
    const { code, stderr } = await runCli(["report", "some-run", ...flags], {
      TAILLAB_RESULTS_DIR: library,
    });
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("per-second");
  });
});
