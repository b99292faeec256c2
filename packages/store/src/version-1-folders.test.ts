import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COLUMN_LAYOUT_V1, allocateRecordArrays, type RecordArrays } from "./record-columns.ts";
import {
  FRAME_HEADER_BYTES,
  FRAME_RECORDS,
  LOG_HEADER_BYTES,
  LOG_MAGIC,
  RECORDS_HEADER_BYTES,
  sealFrame,
} from "./record-log-format.ts";
import { openResultsStore } from "./results-store.ts";
import { SAMPLE_ENVIRONMENT, sampleSpec } from "./test-support/sample-run.ts";

/**
 * Run folders as TailLab wrote them before the per-request timeline (results and records format
 * version 1): they keep opening, read through the version-1 log layout and the folder migration.
 */

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

/** A version-1 records log: one frame of `rows`, laid out as version 1 laid it out. */
function version1Log(rows: Partial<Record<keyof RecordArrays, number>>[]): Buffer {
  const header = Buffer.alloc(LOG_HEADER_BYTES);
  header.write(LOG_MAGIC, 0, "latin1");
  header.writeUInt32LE(1, 8);
  const arrays = allocateRecordArrays(rows.length);
  rows.forEach((row, index) => {
    for (const [name, value] of Object.entries(row)) {
      (arrays[name as keyof RecordArrays] as Float64Array)[index] = value;
    }
  });
  const columnBytes = COLUMN_LAYOUT_V1.map(({ name, bytesPerElement }) => {
    const column = arrays[name];
    return Buffer.from(column.buffer, column.byteOffset, rows.length * bytesPerElement);
  });
  const payloadBytes = columnBytes.reduce((sum, bytes) => sum + bytes.length, RECORDS_HEADER_BYTES);
  const frame = Buffer.alloc(FRAME_HEADER_BYTES + payloadBytes);
  frame.writeUInt32LE(rows.length, FRAME_HEADER_BYTES);
  let at = FRAME_HEADER_BYTES + RECORDS_HEADER_BYTES;
  for (const bytes of columnBytes) at += bytes.copy(frame, at);
  return Buffer.concat([header, sealFrame(frame, FRAME_RECORDS)]);
}

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
      version1Log([
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
        measured: true,
      }),
    ]);
  });
});
