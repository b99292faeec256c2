import type { RunCleanup, RunStatus } from "@taillab/api";
import { openResultsStore, type ResultsStore } from "@taillab/store";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAndRecord } from "./recorded-run.ts";
import { startSignedTestbed, type SignedTestbed } from "./test-support/signed-testbed.ts";

let signed: SignedTestbed;
let dir = "";
let store: ResultsStore;
beforeAll(async () => {
  signed = await startSignedTestbed();
  dir = await mkdtemp(join(tmpdir(), "taillab-recorded-"));
  store = await openResultsStore(dir);
});
afterAll(async () => {
  await signed.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a run stopped with keys left on its server", () => {
  it("is stored as stopped before its cleanup starts, which is kept as pending and then as done", async () => {
    const stop = new AbortController();
    let whenMeasured = null as {
      status: RunStatus;
      summarized: boolean;
      cleanup: RunCleanup | null;
      keysOnServer: number;
    } | null;
    const summary = await runAndRecord(
      { endpoints: [signed.endpoint()], clients: 4, samples: 1_000_000, objectSize: "1KiB" },
      signed.secrets,
      {
        signal: stop.signal,
        // Stopped by what happened, not by the clock.
        onProgress: (update) => {
          if (update.done >= 100 && !stop.signal.aborted) stop.abort();
        },
        onMeasured: async (measured) => {
          const stored = await store.get(measured.runId);
          whenMeasured = {
            status: stored.status,
            summarized: stored.summary !== null,
            cleanup: stored.meta.cleanup ?? null,
            keysOnServer: (await signed.bucket.listKeys(`taillab/${measured.runId}/`)).length,
          };
        },
      },
      { store },
    );
    expect(summary.status).toBe("stopped");
    // When the run was reported, its status and summary were on disk, its keys not yet removed,
    // and run.json said the objects were still to be looked at.
    expect(whenMeasured).toMatchObject({
      status: "stopped",
      summarized: true,
      cleanup: { unchecked: ["objects"], removed: { objects: 0 } },
    });
    const written = whenMeasured?.keysOnServer ?? 0;
    expect(written).toBeGreaterThanOrEqual(100);
    // Then the cleanup removed them all and said so (with the keys of PUTs the stop cut off,
    // which may or may not have landed).
    const stored = await store.get(summary.runId);
    expect(stored.status).toBe("stopped");
    expect(stored.meta.cleanup).toMatchObject({ unchecked: [], objectsLeft: 0 });
    expect(stored.meta.cleanup?.removed.objects).toBeGreaterThanOrEqual(written);
    expect(await signed.bucket.listKeys(`taillab/${summary.runId}/`)).toEqual([]);
  });
});
