import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openResultsStore } from "./results-store.ts";
import { olderLog } from "./test-support/older-log.ts";
import { SAMPLE_ENVIRONMENT, sampleSpec } from "./test-support/sample-run.ts";

/**
 * Run folders as TailLab wrote them before the per-request timeline (results and records format
 * version 1): they keep opening, read through the version-1 log layout and the folder migration.
 */

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

const STATS = {
  min: 1,
  p25: 1,
  p50: 2,
  p75: 2,
  p90: 3,
  p99: 3,
  p999: 3,
  p9999: 3,
  max: 3,
  mean: 2,
  stdev: 0.5,
};

describe("version-1 run folders", () => {
  it("open with their figures kept and the unmeasured ones null; records read as version 2", async () => {
    const root = await mkdtemp(join(tmpdir(), "taillab-v1-"));
    roots.push(root);
    const spec = sampleSpec({ clients: [1, 2], samples: 4, mode: "hedged" });
    const folder = join(root, "run-old");
    await mkdir(folder);
    const keyPrefix = "taillab/run-old/";
    await writeFile(
      join(folder, "run.json"),
      JSON.stringify({
        schemaVersion: 1,
        id: "run-old",
        name: "old",
        tags: [],
        notes: "",
        createdAt: "2026-01-01T00:00:00.000Z",
        spec,
        environment: SAMPLE_ENVIRONMENT,
        keyPrefix,
        status: "complete",
        error: null,
      }),
    );
    const phase = {
      op: "PUT",
      requests: 4,
      errors: 0,
      errorsByCode: {},
      bytes: 16384,
      durationMs: 10,
      throughputMBps: 1.5,
      opsPerSec: 400,
      latencyMs: STATS,
      ttfbMs: STATS,
      hedge: {
        delayMs: 2,
        budgetPct: 10,
        attempts: 5,
        extraPct: 25,
        aborted: 1,
        wastedBytes: 0,
        wonByBackup: 1,
      },
    };
    await writeFile(
      join(folder, "summary.json"),
      JSON.stringify({
        schemaVersion: 1,
        runId: "run-old",
        startedAt: "2026-01-01T00:00:00.000Z",
        finishedAt: "2026-01-01T00:00:01.000Z",
        spec,
        endpointUrls: [],
        server: null,
        mode: "hedged",
        loop: "closed",
        stopped: true,
        points: [{ params: { clients: 1, samples: 4, objectSizeBytes: 4096 }, phases: [phase] }],
      }),
    );
    await writeFile(
      join(folder, "records.log"),
      olderLog(1, [
        { op: 0, keyNumber: 3, bytes: 4096, intendedStartUs: 10, readyUs: 20, firstByteUs: 900 },
      ]),
    );

    const store = await openResultsStore(root);
    const [entry] = await store.list();
    expect(entry).toMatchObject({ id: "run-old", status: "stopped", pointsFinished: 0 });
    const run = await store.get("run-old");
    expect(run.summary).toMatchObject({ status: "stopped", pointCount: 2 });
    expect(run.summary?.points[0]).toMatchObject({ finished: false });
    expect(run.summary?.points[0]?.phases[0]).toMatchObject({
      loop: "closed",
      latencyMs: STATS,
      ttfbMs: null,
      clientQueueMs: null,
      transferMs: null,
      steady: null,
      missedStarts: 0,
      hedge: { cancelled: 1, sameReplica: 0 },
    });
    const records = [];
    for await (const { record } of store.records("run-old")) records.push(record);
    expect(records).toEqual([
      expect.objectContaining({
        key: `${keyPrefix}3`,
        intendedStartUs: 10,
        readyUs: 20,
        sentUs: 20,
        headersUs: 900,
        firstByteUs: 900,
        // Not recorded, rather than 0.
        connectUs: null,
        bodySentUs: null,
        measured: true,
      }),
    ]);
  });
});
