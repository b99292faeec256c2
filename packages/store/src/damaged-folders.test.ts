import { InputError, RunIndexEntrySchema } from "@taillab/api";
import { intervalsFromLog } from "@taillab/core";
import { mkdir, mkdtemp, readFile, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultsStoreError } from "./results-error.ts";
import { openResultsStore, type ResultsStore } from "./results-store.ts";
import { completeRun } from "./test-support/complete-run.ts";
import { sampleRunInput } from "./test-support/sample-run.ts";

/**
 * Run folders damaged after the fact (a disk error, a hand edit, a copy cut short): every one is
 * still listed, says what is wrong, and gives what can be read. Each case names its outcome.
 */

let root = "";
let counter = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "taillab-damaged-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A store holding one complete run of 200 records (PUT and GET, 100 each). */
async function storeWithRun(): Promise<{ store: ResultsStore; id: string; folder: string }> {
  counter += 1;
  const store = await openResultsStore(join(root, `store-${counter}`));
  const id = `run-${counter}`;
  await completeRun(store, id);
  return { store, id, folder: join(store.dir, id) };
}

async function halve(path: string): Promise<void> {
  await truncate(path, Math.floor((await stat(path)).size / 2));
}

async function entryOf(store: ResultsStore, id: string) {
  const entry = (await store.list()).find((each) => each.id === id);
  if (!entry) throw new Error(`run ${id} is not listed`);
  return entry;
}

describe("a damaged run folder", () => {
  it("summary.json cut in half: listed as interrupted, summary rebuilt from its 200 records, damage said", async () => {
    const { store, id, folder } = await storeWithRun();
    await halve(join(folder, "summary.json"));
    const entry = await entryOf(store, id);
    expect(entry).toMatchObject({ status: "interrupted", recordCount: 200 });
    expect(entry.damage?.problems).toEqual([
      expect.stringMatching(
        /^summary\.json is not valid JSON \(.+\); the summary is rebuilt from the records$/,
      ),
    ]);
    const run = await store.get(id);
    expect(run.damage).toEqual(entry.damage);
    const rebuilt = await store.summarizeFromRecords(id);
    expect(rebuilt.points[0]?.phases.map((phase) => phase.op)).toEqual(["PUT", "GET"]);
  });

  it("summary.json off the schema: listed, the field at fault named", async () => {
    const { store, id, folder } = await storeWithRun();
    const path = join(folder, "summary.json");
    const summary = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...summary, points: "many" }));
    expect((await entryOf(store, id)).damage?.problems).toEqual([
      "summary.json does not match the results schema (points: Invalid input: expected array, received string); the summary is rebuilt from the records",
    ]);
  });

  it("histograms.json cut in half: listed as complete, histograms rebuilt for every phase", async () => {
    const { store, id, folder } = await storeWithRun();
    await halve(join(folder, "histograms.json"));
    const entry = await entryOf(store, id);
    expect(entry.status).toBe("complete");
    expect(entry.damage?.problems).toEqual([
      expect.stringMatching(/^histograms\.json is not valid JSON .*rebuilt from the records$/),
    ]);
    const exported = await store.exportRun(id);
    expect(exported.histograms.map((phase) => phase.op)).toEqual(["PUT", "GET"]);
  });

  it.each([
    ["cut in half", (text: string) => text.slice(0, text.length >> 1), /is not valid JSON/],
    ["not an object", () => "[1, 2, 3]", /does not hold a run's metadata/],
    ["off the schema", (text: string) => text.replace('"spec"', '"spek"'), /spec: /],
  ])(
    "run.json %s: listed by its id with why, show refuses in one line, rm still works",
    async (_, damage, reason) => {
      const { store, id, folder } = await storeWithRun();
      const path = join(folder, "run.json");
      await writeFile(path, damage(await readFile(path, "utf8")));
      const entry = RunIndexEntrySchema.parse(await entryOf(store, id));
      expect(entry).toMatchObject({ name: id, status: "complete", recordCount: 200, points: [] });
      expect(entry.damage?.problems).toEqual([expect.stringMatching(reason)]);
      const opened = store.get(id);
      await expect(opened).rejects.toThrow(ResultsStoreError);
      await expect(opened).rejects.toThrow(new RegExp(`^run ${id}: run\\.json [^\\n]+$`));
      await store.remove(id);
      expect((await store.list()).map((each) => each.id)).not.toContain(id);
    },
  );

  it("records.log cut in half: the records before the cut counted, the bytes after it reported", async () => {
    const { store, id, folder } = await storeWithRun();
    const log = join(folder, "records.log");
    const size = (await stat(log)).size;
    await halve(log);
    const run = await store.get(id);
    expect(run.status).toBe("complete");
    expect(run.recordCount).toBeLessThan(200);
    expect(run.damage?.skippedLogBytes).toBeGreaterThan(0);
    expect(run.damage?.skippedLogBytes).toBeLessThan(size / 2);
    // The run counted the 200 records it wrote: the loss is said in records.
    expect(run.damage?.lostRecords).toBe(200 - run.recordCount);
    expect(run.damage?.problems).toEqual([
      `records.log: the ${run.damage?.skippedLogBytes} bytes after record ${run.recordCount} could not be read (cut short or damaged); ${200 - run.recordCount} of the run's 200 records are lost`,
    ]);
    expect((await entryOf(store, id)).damage).toEqual(run.damage);
    const exported: unknown[] = [];
    for await (const row of store.records(id)) exported.push(row);
    expect(exported).toHaveLength(run.recordCount);
  });

  it("records.log with garbage in the middle: the records before it kept, every byte from it on reported", async () => {
    const { store, id, folder } = await storeWithRun();
    const log = join(folder, "records.log");
    const bytes = await readFile(log);
    const middle = bytes.length >> 1;
    bytes.fill(0xee, middle, middle + 64);
    await writeFile(log, bytes);
    const run = await store.get(id);
    expect(run.recordCount).toBeLessThan(200);
    expect(run.damage?.skippedLogBytes).toBeGreaterThan(bytes.length - middle);
    expect(run.damage?.lostRecords).toBe(200 - run.recordCount);
    expect((await store.loadRecords(id)).count).toBe(run.recordCount);
  });

  it("records.log cut in a run that never counted its records (it died, or predates the count): the loss said in bytes", async () => {
    const { store, id, folder } = await storeWithRun();
    const meta = join(folder, "run.json");
    const { recordsWritten, ...older } = JSON.parse(await readFile(meta, "utf8")) as {
      recordsWritten: number;
    };
    expect(recordsWritten).toBe(200);
    await writeFile(meta, JSON.stringify(older));
    await halve(join(folder, "records.log"));
    const run = await store.get(id);
    expect(run.damage?.lostRecords).toBeNull();
    expect(run.damage?.problems).toEqual([
      expect.stringMatching(
        /could not be read \(cut short or damaged\); the records in them are lost$/,
      ),
    ]);
  });

  it("records.log missing: listed with no records, and says so", async () => {
    const { store, id, folder } = await storeWithRun();
    await rm(join(folder, "records.log"));
    const entry = await entryOf(store, id);
    expect(entry).toMatchObject({ status: "complete", recordCount: 0 });
    expect(entry.damage?.problems).toEqual([
      "records.log is missing; the run's 200 records are lost",
    ]);
    expect(entry.damage?.lostRecords).toBe(200);
  });

  it("records.log replaced by another file: listed, says it is not a records log", async () => {
    const { store, id, folder } = await storeWithRun();
    await writeFile(join(folder, "records.log"), "time,op,key\n");
    expect((await entryOf(store, id)).damage?.problems).toEqual([
      "records.log: it is not a TailLab records log; the run's 200 records are lost",
    ]);
  });

  it("records.log cut to 0 bytes: its 200 records said lost, not a run of no records", async () => {
    const { store, id, folder } = await storeWithRun();
    await truncate(join(folder, "records.log"), 0);
    const entry = await entryOf(store, id);
    expect(entry).toMatchObject({ status: "complete", recordCount: 0 });
    expect(entry.damage).toEqual({
      problems: [
        "records.log is empty (cut to less than its header); the run's 200 records are lost",
      ],
      skippedLogBytes: 0,
      lostRecords: 200,
    });
  });

  it("records.log that is a folder: listed with why, its records read as none", async () => {
    const { store, id, folder } = await storeWithRun();
    await rm(join(folder, "records.log"));
    await mkdir(join(folder, "records.log"));
    expect((await entryOf(store, id)).damage?.problems).toEqual([
      expect.stringMatching(
        /^records\.log cannot be read \(EISDIR: .*\); the run's 200 records are lost$/,
      ),
    ]);
    expect((await store.loadRecords(id)).count).toBe(0);
    const rows: unknown[] = [];
    for await (const row of store.records(id)) rows.push(row);
    expect(rows).toEqual([]);
  });

  it.each([
    ["missing", (path: string) => rm(path), /^intervals\.hlog is missing; /],
    [
      "cut 7 bytes short (a power cut)",
      async (path: string) => truncate(path, (await stat(path)).size - 7),
      /^intervals\.hlog: 1 of its \d+ lines could not be read \(cut short or damaged\); /,
    ],
    [
      "garbage",
      (path: string) => writeFile(path, "\u0000\u00ff garbage\nmore"),
      /^intervals\.hlog is not an HdrHistogram interval log; /,
    ],
  ])(
    "intervals.hlog %s: said damaged, percentiles over time rebuilt from the records",
    async (_, damage, reason) => {
      const { store, id, folder } = await storeWithRun();
      const overTime = async () => intervalsFromLog(await store.intervalLog(id));
      const before = await overTime();
      expect(before.map((phase) => phase.op)).toEqual(["PUT", "GET"]);
      await damage(join(folder, "intervals.hlog"));
      const entry = await entryOf(store, id);
      expect(entry.status).toBe("complete");
      expect(entry.damage?.problems).toEqual([expect.stringMatching(reason)]);
      expect(entry.damage?.problems[0]).toMatch(
        /; percentiles over time are rebuilt from the records$/,
      );
      expect((await store.get(id)).damage).toEqual(entry.damage);
      expect(await overTime()).toEqual(before);
      expect((await store.exportRun(id)).intervalLog).toBe(await store.intervalLog(id));
    },
  );

  it.each([
    [
      "a file",
      (path: string) => writeFile(path, "not a run"),
      /^(\S+) is a file, not a run folder/,
    ],
    [
      "a link that leads nowhere",
      (path: string) => symlink("/nonexistent/taillab-run", path),
      /^(\S+) is a link to \/nonexistent\/taillab-run, which does not exist; the run it held is lost$/,
    ],
    [
      "a link to a file",
      async (path: string) => {
        await writeFile(`${path}-target`, "x");
        await symlink(`${path}-target`, path);
      },
      /^(\S+) is a link to \S+-target, which is not a run folder/,
    ],
  ])(
    "a name like a run id that is %s: listed as damaged, show refuses in one line, rm moves it",
    async (_, make, reason) => {
      const { store } = await storeWithRun();
      const stray = "run-stray";
      await make(join(store.dir, stray));
      const entry = RunIndexEntrySchema.parse(await entryOf(store, stray));
      expect(entry).toMatchObject({ name: stray, status: "interrupted", recordCount: 0 });
      expect(entry.damage?.problems).toEqual([expect.stringMatching(reason)]);
      await expect(store.get(stray)).rejects.toThrow(ResultsStoreError);
      await expect(store.get(stray)).rejects.toThrow(/^run run-stray: run-stray is [^\n]+$/);
      await store.remove(stray);
      expect((await store.list()).map((each) => each.id)).not.toContain(stray);
    },
  );

  it("the library's own files are no strays: index.json and temporary files are not listed", async () => {
    const { store, id } = await storeWithRun();
    await writeFile(join(store.dir, `index.json.${process.pid}-0badc0de.tmp`), "");
    expect((await store.list()).map((each) => each.id)).toEqual([id]);
  });

  it("a sound run: no damage", async () => {
    const { store, id } = await storeWithRun();
    expect((await entryOf(store, id)).damage).toBeNull();
    expect((await store.get(id)).damage).toBeNull();
  });

  it("damage found after the index was written is found at the next list", async () => {
    const { store, id, folder } = await storeWithRun();
    expect((await entryOf(store, id)).damage).toBeNull();
    // No wait for the clock to move on: a file changed at the index's own time counts as changed.
    await halve(join(folder, "records.log"));
    expect((await entryOf(store, id)).damage?.skippedLogBytes).toBeGreaterThan(0);
  });
});

describe("a run the library cannot act on", () => {
  it("an unknown id: bad input naming runId, for get, remove and every edit", async () => {
    const { store } = await storeWithRun();
    for (const call of [
      () => store.get("no-such-run"),
      () => store.remove("no-such-run"),
      () => store.rename("no-such-run", "x"),
      () => store.get("../escape"),
    ]) {
      await expect(call()).rejects.toThrow(InputError);
      await expect(call()).rejects.toMatchObject({
        problems: [{ field: "runId", message: expect.stringMatching(/^no run with id "/) }],
      });
    }
  });

  it("removing a run still being written: bad input naming runId, the run kept", async () => {
    counter += 1;
    const store = await openResultsStore(join(root, `store-${counter}`));
    const writer = await store.createRun(sampleRunInput("live-run"));
    const removal = store.remove("live-run");
    await expect(removal).rejects.toThrow(InputError);
    await expect(removal).rejects.toThrow(
      /^runId: run live-run is still being written \(by process \d+\); stop it before deleting it$/,
    );
    expect((await store.get("live-run")).status).toBe("running");
    await writer.fail("test over");
  });

  it("a results folder that is a file: refused in one line", async () => {
    const file = join(root, "a-file");
    await writeFile(file, "");
    await expect(openResultsStore(file)).rejects.toThrow(
      `cannot use ${file} as the results folder: it is a file, not a folder`,
    );
  });
});
