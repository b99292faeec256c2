import { OperationSchema } from "@taillab/api";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { upgradeDocuments } from "./folder-migrations.ts";
import { openResultsStore } from "./results-store.ts";
import { olderLog } from "./test-support/older-log.ts";
import { SAMPLE_ENVIRONMENT, sampleSpec } from "./test-support/sample-run.ts";

/**
 * Run folders as TailLab wrote them before connects and uploads were recorded (results and
 * records format version 2): they open, their records read with no connect and no upload, and
 * their phases, stored or rebuilt from the records, have no connect or upload figures (not
 * recorded, rather than 0).
 */

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

const PUT = OperationSchema.options.indexOf("PUT");

/** A version-2 folder of one PUT phase, its run ended before writing a summary. */
async function version2Folder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "taillab-v2-"));
  roots.push(root);
  const folder = join(root, "run-v2");
  await mkdir(folder);
  const keyPrefix = "taillab/run-v2/";
  await writeFile(
    join(folder, "run.json"),
    JSON.stringify({
      schemaVersion: 2,
      id: "run-v2",
      name: "before connects",
      tags: [],
      notes: "",
      createdAt: "2026-01-01T00:00:00.000Z",
      spec: sampleSpec({ clients: 1, samples: 2 }),
      environment: SAMPLE_ENVIRONMENT,
      keyPrefix,
      status: "running",
      error: null,
      cleanup: null,
      recordsWritten: null,
    }),
  );
  const request = (keyNumber: number, startUs: number) => ({
    op: PUT,
    keyNumber,
    bytes: 4096,
    intendedStartUs: startUs,
    readyUs: startUs,
    // Its connect was in here, unrecorded; so was its upload in sent → first byte.
    sentUs: startUs + 300,
    headersUs: startUs + 900,
    firstByteUs: startUs + 900,
    endUs: startUs + 1000,
    attempt: 1,
    winner: 1,
    measured: 1,
  });
  await writeFile(join(folder, "records.log"), olderLog(2, [request(0, 0), request(1, 2000)]));
  return root;
}

describe("version-2 run folders", () => {
  it("read their records and rebuild their phases without connects or uploads", async () => {
    const store = await openResultsStore(await version2Folder());
    const records = [];
    for await (const { record } of store.records("run-v2")) records.push(record);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ sentUs: 300, connectUs: null, bodySentUs: null });

    const { summary, histograms: rebuilt } = await store.rebuildFromRecords("run-v2");
    const put = summary.points[0]?.phases[0];
    expect(put).toMatchObject({ op: "PUT", requests: 2 });
    // The client queue holds the connect and TTFB the upload, as version 2 measured them.
    expect(put?.clientQueueMs?.max).toBeCloseTo(0.3, 2);
    expect(put?.ttfbMs?.max).toBeCloseTo(0.6, 2);
    expect(put).not.toHaveProperty("connectMs");
    expect(put).not.toHaveProperty("uploadMs");
    expect(put?.tail?.p99).not.toHaveProperty("connectMs");
    expect(put?.tail?.p99).not.toHaveProperty("uploadMs");
    const histograms = rebuilt.find((phase) => phase.op === "PUT");
    expect(histograms).toMatchObject({ connect: null, upload: null });
    expect(histograms?.clientQueue).not.toBeNull();
  });

  it("keep their stored phases as they were, with no connect or upload histograms", () => {
    const phase = { op: "PUT", clientQueueMs: null, ttfbMs: null };
    const { documents, fromVersion } = upgradeDocuments(
      {
        meta: { schemaVersion: 2 },
        summary: { points: [{ phases: [phase] }] },
        histograms: [{ pointIndex: 0, op: "PUT", latency: "h", clientQueue: "q" }],
      },
      "test",
    );
    expect(fromVersion).toBe(2);
    expect(documents.meta.schemaVersion).toBe(3);
    expect(documents.summary).toEqual({ points: [{ phases: [phase] }] });
    expect(documents.histograms).toEqual([
      { pointIndex: 0, op: "PUT", latency: "h", clientQueue: "q", connect: null, upload: null },
    ]);
  });
});
