import { RunSummarySchema, type RunSummary } from "@taillab/api";
import { startTestbedServer, type Testbed } from "@taillab/backend";
import { parseRunExport } from "@taillab/report";
import { ERROR_CODE_MAX_LENGTH, ERROR_CODES_KEPT, OTHER_ERROR_CODE } from "@taillab/core";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, TEST_RESULTS_DIR } from "./test-support/run-cli.ts";

/**
 * Error codes are a server's word: codes named like Object's own properties are counted like
 * any other and the run is saved, listed and reported; codes of 60 KB, each one new, are cut and
 * counted under one "other" code past the first ERROR_CODES_KEPT, so the run's files and its
 * output stay small.
 */

const PROTOTYPE_CODES = ["__proto__", "constructor", "toString", "valueOf"];
const LONG_CODE_BYTES = 60_000;

let server: Testbed;
let mode: "prototype" | "long" = "prototype";
let puts = 0;

beforeAll(async () => {
  server = await startTestbedServer({
    buckets: ["loadgen"],
    interceptor: ({ operation }) => {
      if (operation !== "PutObject") return;
      puts += 1;
      const code =
        mode === "prototype"
          ? (PROTOTYPE_CODES[puts % PROTOTYPE_CODES.length] as string)
          : `Code${puts}`.padEnd(LONG_CODE_BYTES, "x");
      return { fault: { status: 500, code, message: "hostile" } };
    },
  });
});
afterAll(async () => {
  await server?.close();
});

const KEYS = { AWS_ACCESS_KEY_ID: "any", AWS_SECRET_ACCESS_KEY: "any" };

async function failingRun(name: string, samples: number) {
  const run = await runCli(
    [
      "run",
      "--endpoint",
      server.url,
      ...["--phases", "write", "--clients", "2", "--samples", String(samples)],
      ...["--size", "1KiB", "--name", name, "--json"],
    ],
    KEYS,
  );
  const summary = RunSummarySchema.parse(JSON.parse(run.stdout));
  return { run, summary };
}

function putPhase(summary: RunSummary) {
  const phase = summary.points[0]?.phases.find((each) => each.op === "PUT");
  if (!phase) throw new Error("no PUT phase");
  return phase;
}

describe("hostile error codes", () => {
  it("counts __proto__, constructor, toString and valueOf, and the run is saved, listed and reported", async () => {
    mode = "prototype";
    puts = 0;
    const { run, summary } = await failingRun("prototype codes", 40);
    expect(run.code, run.stderr).toBe(1);
    const expected = Object.fromEntries(PROTOTYPE_CODES.map((code) => [code, 10]));
    expect({ ...putPhase(summary).errorsByCode }).toEqual(expected);
    expect(Object.keys(putPhase(summary).errorsByCode).sort()).toEqual([...PROTOTYPE_CODES].sort());

    const saved = RunSummarySchema.parse(
      JSON.parse(await readFile(join(TEST_RESULTS_DIR, summary.runId, "summary.json"), "utf8")),
    );
    expect(saved.status).toBe(summary.status);
    expect(Object.entries(putPhase(saved).errorsByCode).sort()).toEqual(
      Object.entries(expected).sort(),
    );

    const listed = await runCli(["runs", "list", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(summary.runId);

    const report = await runCli(["report", summary.runId, "--format", "json"]);
    expect(report.code, report.stderr).toBe(0);
    const reported = parseRunExport(report.stdout);
    if (!reported.ok) throw new Error(reported.reason);
    expect(Object.entries(putPhase(reported.run.summary).errorsByCode).sort()).toEqual(
      Object.entries(expected).sort(),
    );
    const csv = await runCli(["report", summary.runId, "--format", "csv"]);
    expect(csv.code, csv.stderr).toBe(0);
    for (const code of PROTOTYPE_CODES) expect(csv.stdout).toContain(`${code}`);
    const html = await runCli(["report", summary.runId]);
    expect(html.code, html.stderr).toBe(0);
    for (const code of PROTOTYPE_CODES) expect(html.stdout).toContain(code);
  });

  it("cuts 60 KB codes and counts past the first distinct ones as one, in the summary, the records and the output", async () => {
    mode = "long";
    puts = 0;
    const failures = 200;
    const { run, summary } = await failingRun("long codes", failures);
    expect(run.code, run.stderr).toBe(1);
    const codes = putPhase(summary).errorsByCode;
    expect(Object.keys(codes)).toHaveLength(ERROR_CODES_KEPT + 1);
    expect(codes[OTHER_ERROR_CODE]).toBe(failures - ERROR_CODES_KEPT);
    expect(Object.values(codes).reduce((sum, count) => sum + count, 0)).toBe(failures);
    for (const code of Object.keys(codes)) {
      expect(code.length).toBeLessThanOrEqual(ERROR_CODE_MAX_LENGTH);
    }
    // Each failure's code once in the records at most, cut: far below one 60 KB code each.
    const folder = join(TEST_RESULTS_DIR, summary.runId);
    const bound = failures * LONG_CODE_BYTES;
    expect((await stat(join(folder, "summary.json"))).size).toBeLessThan(bound / 100);
    expect((await stat(join(folder, "records.log"))).size).toBeLessThan(bound / 50);
    expect(run.stdout.length + run.stderr.length).toBeLessThan(bound / 100);
  });
});
