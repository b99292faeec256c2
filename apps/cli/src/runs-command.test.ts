import { RunIndexEntrySchema, RunSummarySchema, type RunIndexEntry } from "@taillab/api";
import { createRandom } from "@taillab/core";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

let library: string;
beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), "taillab-runs-"));
});
afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

const inLibrary = (...args: string[]) => [...args, "--results", library];

async function listRuns(): Promise<RunIndexEntry[]> {
  const result = await runCli(inLibrary("runs", "list", "--json"));
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as unknown[]).map((entry) => RunIndexEntrySchema.parse(entry));
}

describe("taillab runs", () => {
  it("keeps every run: list, show, rename, tag, note, rm and import", async () => {
    const run = await runCli(
      inLibrary(
        "run",
        "--name",
        "lab 2",
        "--clients",
        "2",
        "--samples",
        "20",
        "--size",
        "1KiB",
        "--json",
      ),
    );
    expect(run.code).toBe(0);
    const { runId } = RunSummarySchema.parse(JSON.parse(run.stdout));

    const [listed] = (await listRuns()).filter((entry) => entry.id === runId);
    expect(listed).toMatchObject({
      name: "lab 2",
      status: "complete",
      recordCount: 60,
      mode: "normal",
    });
    expect(listed?.headline.map((phase) => phase.op)).toEqual(["PUT", "GET", "DELETE"]);

    const shown = await runCli(inLibrary("runs", "show", runId));
    expect(shown.stdout).toContain("Results Summary for Read Operation(s)");
    expect(shown.stdout).toContain("status: complete");

    await runCli(inLibrary("runs", "rename", runId, "lab", "2", "(laptop)"));
    await runCli(inLibrary("runs", "tag", runId, "lab2", "laptop"));
    await runCli(inLibrary("runs", "note", runId, "first", "try"));
    const [changed] = (await listRuns()).filter((entry) => entry.id === runId);
    expect(changed).toMatchObject({
      name: "lab 2 (laptop)",
      tags: ["lab2", "laptop"],
      notes: "first try",
    });

    const exported = join(library, "..", `${runId}-export.json`);
    const showJson = JSON.parse(
      (await runCli(inLibrary("runs", "show", runId, "--json"))).stdout,
    ) as {
      meta: unknown;
      summary: unknown;
    };
    await writeFile(
      exported,
      JSON.stringify({
        schemaVersion: 1,
        kind: "taillab-run",
        meta: showJson.meta,
        summary: showJson.summary,
        histograms: [],
      }),
    );

    expect((await runCli(inLibrary("runs", "rm", runId))).code).toBe(0);
    expect((await listRuns()).map((entry) => entry.id)).not.toContain(runId);

    const imported = await runCli(inLibrary("runs", "import", exported, "--json"));
    expect(imported.code).toBe(0);
    expect(RunIndexEntrySchema.parse(JSON.parse(imported.stdout))).toMatchObject({
      name: "lab 2 (laptop)",
    });
    await rm(exported);
  });

  it("names an unknown run and an unknown action", async () => {
    const unknownRun = await runCli(inLibrary("runs", "show", "no-such-run"));
    expect(unknownRun.code).not.toBe(0);
    expect(unknownRun.stderr).toContain("no-such-run");
    const unknownAction = await runCli(inLibrary("runs", "explode"));
    expect(unknownAction.code).toBe(2);
    expect(unknownAction.stderr).toContain('unknown action "explode"');
  });

  it("reads a library that is not there as empty, and does not make it", async () => {
    const absent = join(library, "never-made");
    const viaEnv = { TAILLAB_RESULTS_DIR: join(library, "never-made-either") };
    for (const [args, env] of [
      [["runs", "show", "no-such-run", "--results", absent], {}],
      [["report", "no-such-run", "--results", absent], {}],
      [["report", "no-such-run", "--format", "csv", "--requests"], viaEnv],
      [["compare", "no-such-run", "other-run", "--results", absent], {}],
      [["runs", "rm", "no-such-run"], viaEnv],
      [["cleanup", "no-such-run"], viaEnv],
    ] as const) {
      const refused = await runCli(args, env);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toContain('no run with id "no-such-run"');
    }
    const listed = await runCli(["runs", "list", "--results", absent]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe(`no runs in ${absent}\n`);
    await expect(stat(absent)).rejects.toThrow(/ENOENT/);
    await expect(stat(viaEnv.TAILLAB_RESULTS_DIR)).rejects.toThrow(/ENOENT/);
  });

  it("refuses a run folder that is a symbolic link out of the library, as list skips it", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "taillab-elsewhere-"));
    const run = await runCli([
      ...["run", "--clients", "1", "--samples", "4", "--size", "1KiB", "--json"],
      ...["--results", elsewhere],
    ]);
    expect(run.code).toBe(0);
    const { runId } = RunSummarySchema.parse(JSON.parse(run.stdout));
    await symlink(join(elsewhere, runId), join(library, runId));

    expect((await listRuns()).map((entry) => entry.id)).not.toContain(runId);
    const shown = await runCli(inLibrary("runs", "show", runId));
    expect(shown.code).toBe(2);
    expect(shown.stdout).toBe("");
    expect(shown.stderr.trim().split("\n")).toEqual([
      `taillab runs: runId: ${join(library, runId)} is a symbolic link, not a run folder: TailLab opens only folders inside its library`,
    ]);
    await rm(join(library, runId));
    await rm(elsewhere, { recursive: true, force: true });
  });
});

describe("taillab runs rm and restore", () => {
  it("rm GOOD BAD removes nothing and names BAD (exit 2); rm moves to the trash, restore brings back", async () => {
    const run = await runCli(
      inLibrary("run", "--clients", "1", "--samples", "5", "--size", "1KiB", "--json"),
    );
    expect(run.code, run.stderr).toBe(0);
    const { runId } = RunSummarySchema.parse(JSON.parse(run.stdout));
    const listed = (await listRuns()).find((entry) => entry.id === runId);

    const refused = await runCli(inLibrary("runs", "rm", runId, "no-such-run", "also-missing"));
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toBe(
      `taillab runs: runId: no run with id "no-such-run" in ${library}; runId: no run with id "also-missing" in ${library}\n`,
    );
    expect((await listRuns()).find((entry) => entry.id === runId)).toEqual(listed);

    const removed = await runCli(inLibrary("runs", "rm", runId));
    expect(removed).toMatchObject({ code: 0, stdout: `moved to trash: ${runId}\n` });
    expect((await listRuns()).map((entry) => entry.id)).not.toContain(runId);

    const restored = await runCli(inLibrary("runs", "restore", runId));
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toBe(`restored from the trash: ${runId}: ${listed?.name}\n`);
    expect((await listRuns()).find((entry) => entry.id === runId)).toEqual(listed);

    const again = await runCli(inLibrary("runs", "restore", runId));
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /^taillab runs: runId: no run with id "\S+" in the trash \(.+\)\n$/,
    );
  });
});

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

/** Run folders in `library` (hidden ones, such as the trash, are not runs). */
async function runFolders(library: string): Promise<string[]> {
  return (await readdir(library, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name);
}

describe("a run killed with SIGKILL at any moment", () => {
  it("is listed as interrupted with its records, 20 times over, and nothing is corrupted", async () => {
    const killed = await mkdtemp(join(tmpdir(), "taillab-killed-"));
    const random = createRandom(2026);
    // Half the kills at a random moment after the start, during start-up as often as not; the
    // other half at a random moment after the run's folder appeared, so they hit a run under way
    // however long a start takes on a busy machine; the last once its records reached the disk.
    let killedUnderWay = 0;
    for (let kill = 0; kill < 20; kill++) {
      const known = new Set(await runFolders(killed));
      const child = spawn(
        process.execPath,
        [
          MAIN,
          "run",
          "--results",
          killed,
          "--clients",
          "4",
          "--samples",
          "5000000",
          "--size",
          "1KiB",
        ],
        { stdio: "ignore" },
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const whileRunning = async (done: () => Promise<boolean>) => {
        while (child.exitCode === null && !(await done())) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      if (kill % 2 === 1) {
        let folder: string | undefined;
        await whileRunning(async () => {
          folder = (await runFolders(killed)).find((id) => !known.has(id));
          return folder !== undefined;
        });
        if (folder !== undefined) killedUnderWay += 1;
        if (folder !== undefined && kill === 19) {
          const log = join(killed, folder, "records.log");
          // Past the log's 16-byte header: a frame of records.
          await whileRunning(async () => ((await stat(log).catch(() => null))?.size ?? 0) > 1024);
        }
      }
      const delayMs = Math.round(random.next() * (kill % 2 === 1 ? 1000 : 2500));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      child.kill("SIGKILL");
      await exited;
    }
    expect(killedUnderWay).toBe(10);
    const listed = await runCli(["runs", "list", "--json", "--results", killed]);
    expect(listed.code).toBe(0);
    const runs = (JSON.parse(listed.stdout) as unknown[]).map((entry) =>
      RunIndexEntrySchema.parse(entry),
    );
    // Kills during start-up may come before the run exists; the others all left a run behind.
    expect(runs.length).toBeGreaterThanOrEqual(killedUnderWay);
    expect(runs.length).toBeLessThanOrEqual(20);
    for (const run of runs) {
      expect(run.status).toBe("interrupted");
      const shown = await runCli(["runs", "show", run.id, "--json", "--results", killed]);
      expect(shown.code).toBe(0);
      const { summary, recordCount } = JSON.parse(shown.stdout) as {
        summary: unknown;
        recordCount: number;
      };
      if (recordCount > 0) {
        const rebuilt = RunSummarySchema.parse(summary);
        const requests = rebuilt.points
          .flatMap((point) => point.phases)
          .reduce((sum, phase) => sum + phase.requests, 0);
        expect(requests).toBeGreaterThan(0);
        expect(requests).toBeLessThanOrEqual(recordCount);
      }
    }
    expect(runs.some((run) => run.recordCount > 0)).toBe(true);
    // Every run folder the killed processes left is listed: none is too damaged to read.
    expect(runs.map((run) => run.id).sort()).toEqual((await runFolders(killed)).sort());
    await rm(killed, { recursive: true, force: true });
  });
});
