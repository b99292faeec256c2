import {
  RUN_FOLDER_SCHEMA_VERSION,
  type PhaseHistograms,
  type PhaseSummary,
  type RequestRecord,
} from "@taillab/api";
import {
  decodeHistogram,
  formatIntervalLog,
  intervalsFromLog,
  tallyOfHistogram,
  tallyStatsMs,
} from "@taillab/core";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAt } from "./record-columns.ts";
import { FOLDER_MIGRATIONS } from "./folder-migrations.ts";
import { openResultsStore, type ResultsStore } from "./results-store.ts";
import { completeRun, writePhases, type Written } from "./test-support/complete-run.ts";
import {
  phaseOf,
  sampleRecords,
  sampleRunInput,
  sampleSpec,
  sampleSummary,
} from "./test-support/sample-run.ts";
import { writeAllBytes, type WriteBytes } from "./write-atomically.ts";

let root = "";
let counter = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "taillab-store-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function freshStore(options?: Parameters<typeof openResultsStore>[1]) {
  counter += 1;
  return openResultsStore(join(root, `store-${counter}`), options);
}

/** A pid that no process has any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await once(child, "exit");
  return child.pid ?? 0;
}

/** The run's lock now names a process that is gone, as after kill -9. */
async function killWriter(store: ResultsStore, runId: string): Promise<void> {
  const lockPath = join(store.dir, runId, "writer.lock");
  const lock = JSON.parse(await readFile(lockPath, "utf8")) as { pid: number };
  await writeFile(lockPath, JSON.stringify({ ...lock, pid: await deadPid() }));
}

/** Count and p50/p99 (ms) of an encoded histogram. */
function histogramFigures(encoded: string) {
  const histogram = decodeHistogram(encoded);
  const stats = tallyStatsMs(tallyOfHistogram(histogram));
  const figures = { count: histogram.totalCount, p50: stats?.p50, p99: stats?.p99 };
  histogram.destroy();
  return figures;
}

describe("results store", () => {
  it("round-trips a run: records, histograms, summary, index entry", async () => {
    const store = await freshStore();
    const spec = sampleSpec({ clients: [4, 8], samples: 2500 });
    const input = sampleRunInput("20260101-000000-aaaaaa", spec);
    const writer = await store.createRun(input);
    expect((await store.list())[0]).toMatchObject({ id: input.id, status: "running" });
    const written = await writePhases(writer, spec, input.keyPrefix, 2, ["PUT", "GET"], 2500);
    expect(written).toHaveLength(10_000);
    const summary = sampleSummary(input.id, spec, ["PUT", "GET"]);
    await writer.finish(summary);

    const [entry] = await store.list();
    expect(entry).toMatchObject({
      id: input.id,
      name: input.name,
      status: "complete",
      recordCount: 10_000,
      mode: "normal",
      loop: "closed",
    });
    expect(entry?.points).toHaveLength(2);
    expect(entry?.headline.map((line) => line.op)).toEqual(["PUT", "GET"]);

    const stored = await store.get(input.id);
    expect(stored.status).toBe("complete");
    expect(stored.meta).toMatchObject({ name: input.name, keyPrefix: input.keyPrefix, spec });
    expect(stored.summary).toEqual(summary);
    expect(stored.histograms.map((h) => `${h.pointIndex}${h.op}`)).toEqual([
      "0PUT",
      "0GET",
      "1PUT",
      "1GET",
    ]);
    expect(stored.recordCount).toBe(10_000);

    const columns = await store.loadRecords(input.id);
    expect(columns.count).toBe(10_000);
    const loaded = Array.from({ length: columns.count }, (_, row) => ({
      pointIndex: columns.pointIndex[row],
      record: recordAt(columns, row),
    }));
    expect(loaded).toEqual(written);

    const iterated: Written = [];
    for await (const row of store.records(input.id)) iterated.push(row);
    expect(iterated).toEqual(written);

    const folder = await readdir(join(store.dir, input.id));
    expect(folder.sort()).toEqual([
      "histograms.json",
      "intervals.hlog",
      "records.log",
      "run.json",
      "summary.json",
    ]);
    expect(() => writer.appendRecords(0, [])).toThrow(/has ended/);
  });

  it("rebuilds index.json when it is missing, unparseable, off-schema or out of date", async () => {
    const store = await freshStore();
    await completeRun(store, "run-a");
    await completeRun(store, "run-b");
    const expected = await store.list();
    expect(expected.map((entry) => entry.id)).toEqual(["run-b", "run-a"]);
    const indexPath = join(store.dir, "index.json");
    for (const damage of [null, "{ not json", JSON.stringify([{ id: "run-a" }]), "[]"]) {
      if (damage === null) await rm(indexPath);
      else await writeFile(indexPath, damage);
      expect(await store.list()).toEqual(expected);
      expect(JSON.parse(await readFile(indexPath, "utf8"))).toEqual(expected);
    }
    // A folder deleted behind the store's back leaves the list too.
    await rm(join(store.dir, "run-a"), { recursive: true });
    expect((await store.list()).map((entry) => entry.id)).toEqual(["run-b"]);
  });

  it("finds a run whose writer died as interrupted, with its records, and summarizes it", async () => {
    const store = await freshStore();
    const input = sampleRunInput("run-dead");
    const writer = await store.createRun(input);
    const records = sampleRecords({ keyPrefix: input.keyPrefix, op: "PUT", count: 900, seed: 5 });
    writer.appendRecords(0, records);
    await writer.flush();
    expect(await store.get(input.id)).toMatchObject({ status: "running", recordCount: 900 });

    await killWriter(store, input.id);
    expect((await store.list())[0]).toMatchObject({ status: "interrupted", recordCount: 900 });
    const stored = await store.get(input.id);
    expect(stored).toMatchObject({ status: "interrupted", summary: null });
    expect(stored.meta.status).toBe("interrupted");

    const summary = await store.summarizeFromRecords(input.id);
    expect(summary.status).toBe("stopped");
    const [phase] = summary.points[0]?.phases ?? [];
    const failures = records.filter((record) => record.error !== null && record.attempt === 1);
    const backups = records.filter((record) => record.attempt === 2).length;
    expect(phase?.op).toBe("PUT");
    expect(phase?.requests).toBe(900 - backups);
    expect(phase?.errors).toBe(failures.length - backups);
    const exported = await store.exportRun(input.id);
    expect(exported.summary).toEqual(summary);
    expect(exported.meta.status).toBe("interrupted");
  });

  it("rebuilds the histograms of the phase an interrupted run died in, as its summary is", async () => {
    const store = await freshStore();
    const input = sampleRunInput("run-dead-mid-phase");
    const writer = await store.createRun(input);
    // PUT ended, so its histograms are stored; the writer died during GET.
    const put = sampleRecords({ keyPrefix: input.keyPrefix, op: "PUT", count: 1500, seed: 11 });
    writer.appendRecords(0, put);
    const putPhase = phaseOf(input.spec, 0, "PUT", put);
    await writer.addPhase(putPhase.histograms, putPhase.intervalLines);
    const get = sampleRecords({
      keyPrefix: input.keyPrefix,
      op: "GET",
      count: 800,
      seed: 12,
      phaseIndex: 1,
    });
    writer.appendRecords(0, get);
    // The seconds of GET it had written: only what the first half of its requests made of them.
    writer.addIntervals(phaseOf(input.spec, 0, "GET", get.slice(0, 400)).intervalLines);
    await writer.flush();
    await killWriter(store, input.id);
    const stored = await store.get(input.id);
    expect(stored).toMatchObject({ status: "interrupted", summary: null });
    expect(stored.histograms.map((phase) => phase.op)).toEqual(["PUT"]);
    // GET's percentiles over time are rebuilt from all its records, in place of what it wrote.
    const overTime = intervalsFromLog(await store.intervalLog(input.id));
    expect(overTime).toEqual(
      intervalsFromLog(
        formatIntervalLog(0, [
          ...putPhase.intervalLines,
          ...phaseOf(input.spec, 0, "GET", get).intervalLines,
        ]),
      ),
    );

    const { summary, histograms } = await store.rebuildFromRecords(input.id);
    expect(summary).toEqual(await store.summarizeFromRecords(input.id));
    expect(histograms.map((phase) => `${phase.pointIndex} ${phase.op}`)).toEqual([
      "0 PUT",
      "0 GET",
    ]);
    expect(histograms[0]).toEqual(stored.histograms[0]);
    const phases = summary.points[0]?.phases ?? [];
    const cases: [RequestRecord[], PhaseHistograms | undefined, PhaseSummary | undefined][] = [
      [put, histograms[0], phases[0]],
      [get, histograms[1], phases[1]],
    ];
    for (const [records, phaseHistograms, phase] of cases) {
      // One latency per answered request: its winning attempt.
      const answered = records.filter((record) => record.winner).length;
      const latency = histogramFigures(phaseHistograms?.latency ?? "");
      const ttfb = histogramFigures(phaseHistograms?.ttfb ?? "");
      expect(latency.count).toBe(answered);
      expect(ttfb.count).toBe(answered);
      expect(phase?.requests).toBe(answered + (phase?.errors ?? 0));
      expect(latency.p99).toBe(phase?.latencyMs?.p99);
      expect(latency.p50).toBe(phase?.latencyMs?.p50);
      expect(ttfb.p99).toBe(phase?.ttfbMs?.p99);
    }
    // An export of the run carries them too.
    expect((await store.exportRun(input.id)).histograms).toEqual(histograms);
  });

  it("reads a run whose log ends in a torn frame, at any cut, without throwing", async () => {
    const store = await freshStore();
    const input = sampleRunInput("run-torn");
    const writer = await store.createRun(input);
    const sizes: number[] = [];
    const logPath = join(store.dir, input.id, "records.log");
    for (const seed of [1, 2, 3]) {
      writer.appendRecords(
        0,
        sampleRecords({ keyPrefix: input.keyPrefix, op: "PUT", count: 200, seed }),
      );
      await writer.flush();
      sizes.push((await stat(logPath)).size);
    }
    await writer.fail("cut short by the test");
    const whole = await readFile(logPath);
    const lastFrameStart = sizes[1] ?? 0;
    for (let cut = lastFrameStart; cut < whole.length; cut += 97) {
      await writeFile(logPath, whole.subarray(0, cut));
      expect((await store.loadRecords(input.id)).count).toBe(400);
      expect((await store.get(input.id)).recordCount).toBe(400);
      let rows = 0;
      for await (const row of store.records(input.id)) rows += row.pointIndex === 0 ? 1 : 0;
      expect(rows).toBe(400);
      const summary = await store.summarizeFromRecords(input.id);
      expect(summary.points[0]?.phases[0]?.op).toBe("PUT");
    }
  });

  it("renames, tags, annotates, trashes and empties the trash", async () => {
    const store = await freshStore();
    await completeRun(store, "run-lib");
    expect(await store.rename("run-lib", "  Baseline  ")).toMatchObject({ name: "Baseline" });
    await store.tag("run-lib", "minio");
    await store.tag("run-lib", "nvme");
    await store.tag("run-lib", "minio");
    expect((await store.untag("run-lib", "nvme")).tags).toEqual(["minio"]);
    await store.annotate("run-lib", "after the firmware update");
    expect((await store.list())[0]).toMatchObject({
      name: "Baseline",
      tags: ["minio"],
      notes: "after the firmware update",
    });
    expect((await store.get("run-lib")).meta).toMatchObject({ name: "Baseline", tags: ["minio"] });
    await expect(store.rename("run-lib", " ")).rejects.toThrow("name: cannot be empty");

    await store.remove("run-lib");
    expect(await store.list()).toEqual([]);
    expect(await readdir(join(store.dir, ".trash"))).toEqual(["run-lib"]);
    await expect(store.get("run-lib")).rejects.toThrow(`no run with id "run-lib" in ${store.dir}`);
    expect(await store.emptyTrash()).toBe(1);
    expect(await readdir(join(store.dir, ".trash"))).toEqual([]);
  });

  it("keeps the last cleanup of a run's leftovers in run.json, also while the run is written", async () => {
    const store = await freshStore();
    const writer = await store.createRun(sampleRunInput("run-left"));
    const left = {
      at: "2026-01-01T00:00:00.000Z",
      removed: { objects: 14_000, uploads: 0, buckets: 2 },
      objectsLeft: 6_000,
      uploadsLeft: 1,
      bucketsLeft: ["taillab-run-left-w0-3"],
      unchecked: [],
      errorsByCode: { ECONNREFUSED: 6_002 },
    };
    await store.recordCleanup("run-left", left);
    await writer.fail("the server went away");
    expect((await store.get("run-left")).meta.cleanup).toEqual(left);
    const clean = { ...left, objectsLeft: 0, uploadsLeft: 0, bucketsLeft: [], errorsByCode: {} };
    await store.recordCleanup("run-left", clean);
    expect((await store.get("run-left")).meta).toMatchObject({
      cleanup: clean,
      status: "failed",
      error: "the server went away",
    });
  });

  it("refuses to delete a run that is still being written", async () => {
    const store = await freshStore();
    const input = sampleRunInput("run-live");
    const writer = await store.createRun(input);
    await expect(store.remove(input.id)).rejects.toThrow(
      `run run-live is still being written (by process ${process.pid}); stop it before deleting it`,
    );
    await writer.fail("stopped by the test");
    expect(await store.get(input.id)).toMatchObject({
      status: "failed",
      meta: { error: "stopped by the test" },
    });
    await store.remove(input.id);
  });

  it("names unknown runs and bad ids clearly", async () => {
    const store = await freshStore();
    for (const call of [
      () => store.get("nope"),
      () => store.loadRecords("nope"),
      () => store.rename("nope", "x"),
      () => store.remove("../etc"),
    ]) {
      await expect(call()).rejects.toThrow(/no run with id "(nope|\.\.\/etc)" in /);
    }
    await completeRun(store, "taken");
    await expect(store.createRun(sampleRunInput("taken"))).rejects.toThrow(
      `a run with id "taken" already exists in ${store.dir}`,
    );
    await expect(store.createRun(sampleRunInput("a/b"))).rejects.toThrow(
      'run id "a/b" cannot be a folder name',
    );
  });

  it("exports and imports runs, under a new id when the id is taken", async () => {
    const store = await freshStore();
    const { written } = await completeRun(store, "run-x", 300);
    const exported = await store.exportRun("run-x");
    expect(exported).toMatchObject({
      kind: "taillab-run",
      schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
    });
    const exportPath = join(root, `export-${counter}.json`);
    await writeFile(exportPath, JSON.stringify(exported));

    const fromExport = await store.importExport(exportPath);
    expect(fromExport.id).toMatch(/^run-x-[0-9a-f]{6}$/);
    expect(fromExport).toMatchObject({ status: "complete", recordCount: 0, name: "run run-x" });
    const imported = await store.get(fromExport.id);
    expect(imported.summary).toEqual({ ...exported.summary, runId: fromExport.id });
    expect(imported.histograms).toEqual(exported.histograms);

    const other = await freshStore();
    const fromFolder = await other.importFolder(join(store.dir, "run-x"));
    expect(fromFolder).toMatchObject({ id: "run-x", status: "complete", recordCount: 600 });
    const rows: Written = [];
    for await (const row of other.records("run-x")) rows.push(row);
    expect(rows).toEqual(written);
    const again = await other.importFolder(join(store.dir, "run-x"));
    expect(again.id).not.toBe("run-x");
    expect((await other.list()).map((entry) => entry.id).sort()).toEqual(
      ["run-x", again.id].sort(),
    );

    await writeFile(exportPath, JSON.stringify({ hello: 1 }));
    await expect(store.importExport(exportPath)).rejects.toThrow(/not a TailLab run export/);
    await expect(store.importFolder(join(root, "missing"))).rejects.toThrow(/no such folder/);
  });

  it("refuses a folder from a newer TailLab, and upgrades an older one through migrations", async () => {
    const store = await freshStore();
    await completeRun(store, "run-v1");
    const meta = JSON.parse(
      await readFile(join(store.dir, "run-v1", "run.json"), "utf8"),
    ) as Record<string, unknown>;

    const future = join(store.dir, "run-future");
    await cp(join(store.dir, "run-v1"), future, { recursive: true });
    await writeFile(
      join(future, "run.json"),
      JSON.stringify({ ...meta, id: "run-future", schemaVersion: 7 }),
    );
    const newer = new RegExp(
      `written by a newer TailLab \\(results schema version 7; this version reads up to ${RUN_FOLDER_SCHEMA_VERSION}\\): update TailLab to open it`,
    );
    await expect(store.get("run-future")).rejects.toThrow(newer);
    await expect(store.importFolder(future)).rejects.toThrow(newer);
    const listed = await store.list();
    expect(listed.map((entry) => entry.id).sort()).toEqual(["run-future", "run-v1"]);
    expect(listed.find((entry) => entry.id === "run-future")?.damage?.problems).toEqual([
      expect.stringMatching(newer),
    ]);

    // Version 0 (made up for the test) called the name "title".
    const old = join(store.dir, "run-v0");
    await cp(join(store.dir, "run-v1"), old, { recursive: true });
    const { name, ...rest } = meta;
    await writeFile(
      join(old, "run.json"),
      JSON.stringify({ ...rest, id: "run-v0", schemaVersion: 0, title: name }),
    );
    await expect(store.get("run-v0")).rejects.toThrow(
      "run run-v0 has results schema version 0, which this TailLab cannot upgrade (no migration from version 0 to 1)",
    );
    const migrating = await openResultsStore(store.dir, {
      migrations: {
        ...FOLDER_MIGRATIONS,
        0: ({ meta: { title, ...others }, ...documents }) => ({
          ...documents,
          meta: { ...others, name: title },
        }),
      },
    });
    expect((await migrating.get("run-v0")).meta).toMatchObject({
      name: "run run-v1",
      schemaVersion: RUN_FOLDER_SCHEMA_VERSION,
    });
    expect((await migrating.list()).map((entry) => entry.id).sort()).toEqual([
      "run-future",
      "run-v0",
      "run-v1",
    ]);
    // A change rewrites the folder at the current version; the old one is kept in the trash.
    await migrating.rename("run-v0", "upgraded");
    const rewritten = JSON.parse(await readFile(join(old, "run.json"), "utf8")) as unknown;
    expect(rewritten).toMatchObject({ schemaVersion: RUN_FOLDER_SCHEMA_VERSION, name: "upgraded" });
    expect((await store.get("run-v0")).recordCount).toBe(200);
    expect((await readdir(join(store.dir, ".trash")))[0]).toMatch(/^run-v0\.before-upgrade-/);
  });

  it("ends the run on a full disk with a clear error, keeping what was written", async () => {
    let diskFull = false;
    const writeBytes: WriteBytes = async (file, bytes, position) => {
      if (!diskFull) return writeAllBytes(file, bytes, position);
      // Half the bytes fit, then the disk is full: a torn frame on disk.
      await writeAllBytes(file, bytes.subarray(0, bytes.length >> 1), position);
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    };
    const store = await freshStore({ writeBytes });
    const input = sampleRunInput("run-full");
    const errors: Error[] = [];
    const writer = await store.createRun({ ...input, onError: (error) => errors.push(error) });
    const before = sampleRecords({ keyPrefix: input.keyPrefix, op: "PUT", count: 1000, seed: 7 });
    writer.appendRecords(0, before);
    await writer.flush();

    diskFull = true;
    writer.appendRecords(
      0,
      sampleRecords({ keyPrefix: input.keyPrefix, op: "PUT", count: 500, seed: 8 }),
    );
    const message =
      /^results disk is full: could not write .*records\.log; the run's records up to here are kept$/;
    await expect(writer.flush()).rejects.toThrow(message);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(message);
    expect(writer.error?.message).toMatch(message);
    writer.appendRecords(0, before);
    await expect(writer.finish(sampleSummary(input.id, input.spec, ["PUT"]))).rejects.toThrow(
      message,
    );

    // run.json could not be rewritten either (the disk is still full): the run is interrupted.
    diskFull = false;
    const stored = await store.get(input.id);
    expect(stored.status).toBe("interrupted");
    expect(stored.recordCount).toBe(1000);
    const columns = await store.loadRecords(input.id);
    expect(Array.from({ length: columns.count }, (_, row) => recordAt(columns, row))).toEqual(
      before,
    );
  });

  it("records the disk-full failure in run.json when there is room for it", async () => {
    let failRecords = false;
    const writeBytes: WriteBytes = async (file, bytes, position) => {
      // Only the records log's frames (appended after its 16-byte header) hit the full disk.
      if (failRecords && position >= 16) {
        throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
      }
      return writeAllBytes(file, bytes, position);
    };
    const store = await freshStore({ writeBytes });
    const input = sampleRunInput("run-full-2");
    const writer = await store.createRun(input);
    failRecords = true;
    writer.appendRecords(
      0,
      sampleRecords({ keyPrefix: input.keyPrefix, op: "PUT", count: 10, seed: 1 }),
    );
    await expect(writer.flush()).rejects.toThrow(/results disk is full/);
    const stored = await store.get(input.id);
    expect(stored.status).toBe("failed");
    expect(stored.meta.error).toMatch(
      /^results disk is full: .*the run's records up to here are kept$/,
    );
    expect((await store.list())[0]).toMatchObject({ status: "failed", recordCount: 0 });
  });

  it("leaves nothing half-made when a run cannot even be created", async () => {
    const store = await freshStore({
      writeBytes: async () => {
        throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
      },
    });
    await expect(store.createRun(sampleRunInput("run-none"))).rejects.toThrow(
      `could not create run run-none in ${store.dir}: the results disk is full`,
    );
    await mkdir(store.dir, { recursive: true });
    expect(await readdir(store.dir)).toEqual([]);
  });
});
