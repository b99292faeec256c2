import { RunSummarySchema } from "@taillab/api";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

let library: string;
beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), "taillab-compare-"));
});
afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

const inLibrary = (...args: string[]) => [...args, "--results", library];

async function runAt(clients: number): Promise<string> {
  const run = await runCli(
    inLibrary(
      "run",
      "--name",
      `at ${clients}`,
      "--clients",
      String(clients),
      "--samples",
      "16",
      "--size",
      "1KiB",
      "--json",
    ),
  );
  expect(run.code).toBe(0);
  return RunSummarySchema.parse(JSON.parse(run.stdout)).runId;
}

describe("taillab compare", () => {
  it("pairs runs at 2 and 8 clients in order and says they differ in clients", async () => {
    const two = await runAt(2);
    const eight = await runAt(8);

    const result = await runCli(inLibrary("compare", two, eight));
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    // The baseline's point on every row, each with both runs' figures (none missing).
    const p50 = lines.filter((line) => /^2-16-1KiB\s+GET\s+p50 ms/.test(line));
    expect(p50).toHaveLength(1);
    // Each percentile's change is judged from the two runs' intervals.
    expect(p50[0]).toMatch(/p50 ms\s+\d[\d.]*\s+\d[\d.]* \([+-]\d+\.\d %, (significant|n\.s\.)\)$/);
    expect(result.stdout).toContain(
      "A percentile's change is significant when the two figures' 95 % order-statistic intervals do not overlap",
    );
    expect(result.stdout).not.toContain("–");
    expect(lines.at(-1)).toBe(
      `run at 8 [${eight}] paired in order with the baseline: differs in clients (8 vs 2)`,
    );

    const json = await runCli(inLibrary("compare", two, eight, "--json"));
    expect(JSON.parse(json.stdout)).toMatchObject({
      pairings: [
        { pairing: "baseline", differingParams: [] },
        {
          pairing: "in-order",
          differingParams: [{ param: "clients", values: [8], baselineValues: [2] }],
        },
      ],
    });
  });
});
