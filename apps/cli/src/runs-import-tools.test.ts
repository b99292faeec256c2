import { RunIndexEntrySchema, RunSummarySchema } from "@taillab/api";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/** Files the real tools wrote (packages/store/src/test-support/tool-fixtures/README.md). */
const fixture = (name: string) =>
  fileURLToPath(
    new URL(`../../../packages/store/src/test-support/tool-fixtures/${name}`, import.meta.url),
  );

let library: string;
beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), "taillab-runs-import-"));
});
afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

const inLibrary = (...args: string[]) => [...args, "--results", library];

async function importRun(path: string): Promise<string> {
  const imported = await runCli(inLibrary("runs", "import", path, "--json"));
  expect(imported.stderr).toBe("");
  expect(imported.code).toBe(0);
  return RunIndexEntrySchema.parse(JSON.parse(imported.stdout)).id;
}

describe("taillab runs import of other tools' results", () => {
  it("lists, shows and compares them as runs, marked with their tool", async () => {
    const s3bench = await importRun(fixture("s3bench-minio.txt"));
    const warp = await importRun(fixture("warp-get.csv.zst"));
    await importRun(fixture("elbencho-s3.json"));

    const list = await runCli(inLibrary("runs", "list"));
    expect(list.stdout).toContain("complete (imported from s3bench)");
    expect(list.stdout).toContain("complete (imported from warp)");
    expect(list.stdout).toContain("complete (imported from elbencho)");

    const shown = await runCli(inLibrary("runs", "show", s3bench));
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("imported from s3bench (s3bench-minio.txt)");
    expect(shown.stdout).toMatch(/^not in the file: per-request data/m);
    // The figures s3bench printed, as it printed them (s3bench-minio.txt).
    expect(shown.stdout).toContain("Total Throughput:  30.39 MB/s");
    expect(shown.stdout).toContain("Write times 99th %ile: 0.021 s");
    expect(shown.stdout).toContain("Read times 50th %ile: 0.003 s");
    expect(shown.stdout).not.toContain("99.9th");

    const json = await runCli(inLibrary("runs", "show", warp, "--json"));
    const summary = RunSummarySchema.parse(JSON.parse(json.stdout).summary);
    expect(summary.points[0]?.phases.map((phase) => [phase.op, phase.requests])).toEqual([
      ["PUT", 16],
      ["GET", 200],
    ]);

    const compared = await runCli(inLibrary("compare", s3bench, warp));
    expect(compared.code).toBe(0);
    expect(compared.stdout).toMatch(/GET\s+p99 ms\s+7\s+3\.205 \(-54\.2 %\)/);
  });

  it("refuses a damaged file in one line (exit 2) and adds nothing", async () => {
    const text = await readFile(fixture("s3bench-minio.txt"), "utf8");
    const damaged = join(library, "s3bench-damaged.txt");
    await writeFile(damaged, text.replace("Total Duration:    0.082 s", "Total Duration:    ?"));
    const before = await runCli(inLibrary("runs", "list", "--json"));
    const refused = await runCli(inLibrary("runs", "import", damaged));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^taillab runs: path: .*s3bench-damaged\.txt: line \d+, field "Total Duration": .*\n$/,
    );
    expect((await runCli(inLibrary("runs", "list", "--json"))).stdout).toBe(before.stdout);
  });
});
