import { readJunitXml } from "@taillab/test-support";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "./exit-codes.ts";
import { runCli } from "./test-support/run-cli.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-thresholds-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const WORKLOAD = ["--clients", "2", "--samples", "400", "--size", "1KiB"];

describe("taillab run --threshold on the embedded testbed", () => {
  it("lists which thresholds held and failed, exits 99 and writes JUnit XML CI systems read", async () => {
    const specFile = join(scratch, "spec.json");
    // A spec file's thresholds come first, then each --threshold.
    await writeFile(specFile, JSON.stringify({ thresholds: ["PUT ops/s>0"] }));
    const junit = join(scratch, "thresholds.xml");
    const result = await runCli([
      "run",
      ...WORKLOAD,
      "--spec",
      specFile,
      // No latency is below a microsecond: fails whatever the machine's load.
      "--threshold",
      "GET p50<1us",
      "--threshold",
      "GET p99<60s@ci",
      // 400 requests leave none beyond p99.99: its interval is open above, so it cannot hold.
      "--threshold",
      "GET p99.99<60s@ci",
      "--threshold",
      "errors<0.1%",
      "--junit",
      junit,
    ]);
    expect(result.stderr).toContain(
      `taillab run: exit ${EXIT.thresholds}: 2 thresholds of 5 failed: GET p50<1us, GET p99.99<60s@ci`,
    );
    expect(result.code).toBe(EXIT.thresholds);
    const listed = result.stdout.slice(result.stdout.indexOf("Thresholds:"));
    expect(listed).toMatch(/^Thresholds: 3 of 5 held\n/);
    expect(listed).toMatch(
      /\n {2}held {4}PUT ops\/s>0 {2}PUT: [\d.]+ ops\/s \(wanted > 0 ops\/s\)\n/,
    );
    expect(listed).toMatch(/\n {2}FAILED {2}GET p50<1us {2}GET: [\d.]+ ms \(wanted < 0.001 ms\)\n/);
    expect(listed).toMatch(
      /\n {2}held {4}GET p99<60s@ci {2}GET: [\d.]+ ms, 95 % interval \[[\d.]+, [\d.]+\] ms/,
    );
    expect(listed).toContain("GET: its 95 % interval is open above");
    expect(listed).toMatch(/\n {2}held {4}errors<0.1% {2}\w+: 0 % errors \(0 of 400\)/);
    // The summary says what the tail figures rest on.
    expect(result.stdout).toContain("Read p99.99 from 400 requests rests on 0");

    const cases = await readJunitXml(await readFile(junit, "utf8"));
    expect(cases.map(({ name, failure }) => [name, failure !== null])).toEqual([
      ["PUT ops/s>0", false],
      ["GET p50<1us", true],
      ["GET p99<60s@ci", false],
      ["GET p99.99<60s@ci", true],
      ["errors<0.1%", false],
    ]);
  });

  it("exits 0 when every threshold holds", async () => {
    const result = await runCli([
      "run",
      "--clients",
      "1",
      "--samples",
      "20",
      "--size",
      "1KiB",
      "--threshold",
      "GET p50<60s",
      "--json",
    ]);
    expect(result.code).toBe(EXIT.ok);
    // With --json the list goes to stderr: stdout holds the summary alone.
    expect(JSON.parse(result.stdout)).toHaveProperty("runId");
    expect(result.stderr).toContain("Thresholds: 1 of 1 held");
  });

  it.each([
    ["GET p99.9<fast", 'thresholds[0]: threshold "GET p99.9<fast": expected a time such as 50ms'],
    ["FETCH p99<5ms", 'thresholds[0]: threshold "FETCH p99<5ms": unknown operation "FETCH"'],
    ["p99.9 50ms", 'thresholds[0]: threshold "p99.9 50ms": expected [OPERATION] FIGURE'],
  ])("refuses %j in one line, exit 2, before anything runs", async (expression, message) => {
    const junit = join(scratch, "never.xml");
    const result = await runCli(["run", ...WORKLOAD, "--threshold", expression, "--junit", junit]);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stdout).toBe("");
    await expect(stat(junit)).rejects.toThrow(/ENOENT/);
  });
});
