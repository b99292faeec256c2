import { RunSummarySchema } from "@taillab/api";
import { cp, mkdir, mkdtemp, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * `taillab report` of a run folder damaged after the fact: the report of what can be read, and a
 * warning line per damaged file on stderr; never a stack trace.
 */

let library = "";
let runId = "";
beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), "taillab-report-damaged-"));
  const run = await runCli(
    ["run", "--clients", "2", "--samples", "20", "--size", "1KiB", "--json"],
    { TAILLAB_RESULTS_DIR: library },
  );
  expect(run.code, run.stderr).toBe(0);
  runId = RunSummarySchema.parse(JSON.parse(run.stdout)).runId;
});
afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

/** A copy of the run under a new id, damaged by `damage`. */
async function damagedCopy(id: string, damage: (folder: string) => Promise<void>) {
  const folder = join(library, id);
  await cp(join(library, runId), folder, { recursive: true });
  for (const file of ["run.json", "summary.json"]) {
    const path = join(folder, file);
    await writeFile(path, (await readFile(path, "utf8")).replaceAll(runId, id));
  }
  await damage(folder);
}

const report = (id: string, ...flags: string[]) =>
  runCli(["report", id, ...flags], { TAILLAB_RESULTS_DIR: library });

describe("taillab report of a damaged run", () => {
  it.each([
    [
      "intervals.hlog cut 7 bytes short (a power cut)",
      async (folder: string) => {
        const path = join(folder, "intervals.hlog");
        await truncate(path, (await stat(path)).size - 7);
      },
      /intervals\.hlog: 1 of its \d+ lines could not be read \(cut short or damaged\); percentiles over time are rebuilt from the records/,
    ],
    [
      "records.log with garbage in it",
      (folder: string) => writeFile(join(folder, "records.log"), Buffer.alloc(5000, 0xee)),
      /records\.log: it is not a TailLab records log; the run's 60 records are lost/,
    ],
    [
      "records.log that is a folder",
      async (folder: string) => {
        await rm(join(folder, "records.log"));
        await mkdir(join(folder, "records.log"));
      },
      /records\.log cannot be read \(EISDIR: [^)]+\); the run's 60 records are lost/,
    ],
  ])("%s: the HTML report, and the damage said in one line", async (_, damage, said) => {
    const id = `damaged-${Math.random().toString(16).slice(2, 8)}`;
    await damagedCopy(id, damage);
    const { code, stdout, stderr } = await report(id);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^<!doctype html>/i);
    expect(stderr.split("\n")).toEqual([expect.stringMatching(said), ""]);
    expect(stderr).toMatch(new RegExp(`^warning: run ${id} is damaged: `));
    expect(stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it("a per-request CSV of a run whose records.log is missing: the header, and the loss said", async () => {
    await damagedCopy("no-records", (folder) => rm(join(folder, "records.log")));
    const { code, stdout, stderr } = await report("no-records", "--format", "csv", "--requests");
    expect(code, stderr).toBe(0);
    expect(stdout.split("\r\n")).toEqual([expect.stringMatching(/^point,/), ""]);
    expect(stderr).toBe(
      "warning: run no-records is damaged: records.log is missing; the run's 60 records are lost\n",
    );
  });
});
