import { InputError } from "@taillab/api";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openResultsStore } from "./results-store.ts";
import { completeRun } from "./test-support/complete-run.ts";
import { sampleRunInput } from "./test-support/sample-run.ts";

let root = "";
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "taillab-trash-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the library's trash", () => {
  it("restore brings a removed run back whole, as it was listed", async () => {
    const store = await openResultsStore(join(root, "restore"));
    await completeRun(store, "run-a");
    const [listed] = await store.list();
    await store.remove("run-a");
    expect(await store.list()).toEqual([]);
    expect(await store.restore("run-a")).toEqual(listed);
    expect(await store.list()).toEqual([listed]);
    expect(await readdir(join(store.dir, ".trash"))).toEqual([]);
    expect((await store.get("run-a")).recordCount).toBe(200);
  });

  it("a run removed twice under one id: restore brings back the one removed last", async () => {
    const store = await openResultsStore(join(root, "twice"));
    await completeRun(store, "run-b", 10);
    await store.remove("run-b");
    await completeRun(store, "run-b", 30);
    await store.remove("run-b");
    expect((await store.restore("run-b")).recordCount).toBe(60);
    await store.remove("run-b");
    expect(await readdir(join(store.dir, ".trash"))).toHaveLength(2);
  });

  it("refuses, naming runId: an id not in the trash, an id the library has", async () => {
    const store = await openResultsStore(join(root, "refusals"));
    await completeRun(store, "run-c");
    await expect(store.restore("run-none")).rejects.toThrow(InputError);
    await expect(store.restore("run-none")).rejects.toThrow(
      /^runId: no run with id "run-none" in the trash \(.+\.trash\)$/,
    );
    await store.remove("run-c");
    await completeRun(store, "run-c");
    await expect(store.restore("run-c")).rejects.toThrow(
      'runId: the library already has a run with id "run-c"; remove it first (taillab runs rm run-c)',
    );
  });

  it("checkRemovable refuses as remove would, and removes nothing", async () => {
    const store = await openResultsStore(join(root, "check"));
    await completeRun(store, "run-d");
    const writer = await store.createRun(sampleRunInput("run-live"));
    await expect(store.checkRemovable("run-none")).rejects.toThrow(/^runId: no run with id/);
    await expect(store.checkRemovable("run-live")).rejects.toThrow(/still being written/);
    await store.checkRemovable("run-d");
    expect((await store.list()).map((entry) => entry.id).sort()).toEqual(["run-d", "run-live"]);
    await writer.fail("test over");
  });
});
