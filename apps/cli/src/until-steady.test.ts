import { RunSummarySchema } from "@taillab/api";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-until-steady-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A loose rule and a short hold: the test is about stopping, not about a fine figure. */
const RULE = ["--until-steady", "--steady-within", "25%", "--steady-for", "300ms"];

function testbedOf(profile: object) {
  return { testbed: { profile: { description: "until-steady test", ...profile } } };
}

describe("taillab run --until-steady on the embedded testbed", () => {
  it("ends a steady server's write early, says why, and still deletes every key written", async () => {
    // A fixed service time: the p99 of 4 clients settles within a few hundred requests.
    const spec = join(scratch, "steady.json");
    await writeFile(spec, JSON.stringify(testbedOf({ serviceTime: { kind: "fixed", ms: 5 } })));
    const max = 20_000;
    const result = await runCli([
      "run",
      "--spec",
      spec,
      "--clients",
      "4",
      "--samples",
      String(max),
      "--size",
      "1KiB",
      "--phases",
      "write,cleanup",
      ...RULE,
      "--json",
    ]);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    const [point] = RunSummarySchema.parse(JSON.parse(result.stdout)).points;
    const [put, del] = point?.phases ?? [];
    const [outcome] = put?.untilSteady ?? [];
    expect(outcome).toMatchObject({ steady: true, percentile: 99, tolerancePercent: 25 });
    expect(outcome?.withinPercent).toBeLessThanOrEqual(25);
    expect(put?.requests).toBeLessThan(max);
    // The cleanup never ends early: it deletes exactly what the shortened write wrote.
    expect(del?.untilSteady).toBeUndefined();
    expect(del?.requests).toBe(put?.requests);
    expect(del?.errors).toBe(0);
  });

  it("runs a server whose p99 sits on its stalls to its maximum, and says it was not steady", async () => {
    // The same server, but 1 % of requests stall: the p99 falls on the stalls' edge, and its
    // interval spans both sides.
    const max = 1500;
    const result = await runCli([
      "run",
      "--spec-json",
      JSON.stringify(
        testbedOf({
          serviceTime: { kind: "fixed", ms: 5 },
          stalls: { probability: 0.01, durationMs: 300 },
        }),
      ),
      "--clients",
      "4",
      "--samples",
      String(max),
      "--size",
      "1KiB",
      "--phases",
      "write",
      ...RULE,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /Until steady: +ran to its maximum, 1,500 requests \(\d+\.\d s\): p99 not steady within ±25 %/,
    );
  });
});
