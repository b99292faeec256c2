import { RunSpecSchema, type Operation, type RequestRecord } from "@taillab/api";
import { decodeHistogram, tallyOfHistogram, tallyStatsMs } from "@taillab/core";
import { openResultsStore, type ResultsStore } from "@taillab/store";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRunReportInput, renderStoredReport } from "./run-report.ts";
import { captureEnvironment } from "./run-environment.ts";

let dir = "";
let store: ResultsStore;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "taillab-run-report-"));
  store = await openResultsStore(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `count` single-attempt requests, one a second apart in µs, the last one failed. */
function requests(op: Operation, keyPrefix: string, count: number): RequestRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const startUs = index * 1_000_000;
    const failed = index === count - 1;
    return {
      op,
      key: `${keyPrefix}${index}`,
      bytes: failed ? 0 : 1024,
      intendedStartUs: startUs,
      readyUs: startUs,
      sentUs: startUs + 10,
      headersUs: startUs + 200 + index,
      firstByteUs: startUs + 200 + index,
      endUs: startUs + 1000 + 37 * index,
      connectUs: 0,
      bodySentUs: startUs + 10,
      status: failed ? 503 : 200,
      error: failed ? "SlowDown" : null,
      attempt: 1,
      replica: 0,
      winner: !failed,
      phaseIndex: op === "PUT" ? 0 : 1,
      client: index % 2,
      measured: true,
    };
  });
}

describe("a stored run's report input", () => {
  it("rebuilds the histograms of a run that never finished from its records", async () => {
    const spec = RunSpecSchema.parse({ clients: 2, samples: 400, objectSize: "1KiB" });
    const id = "20260101-000000-cutcut";
    const keyPrefix = `${spec.keyPrefix}/${id}/`;
    const writer = await store.createRun({
      id,
      name: "Cut short",
      spec,
      environment: captureEnvironment("TestServer"),
      keyPrefix,
      runStartEpochMs: Date.now(),
    });
    // The writer stopped mid-run, before any phase's histograms were stored.
    writer.appendRecords(0, requests("PUT", keyPrefix, 400));
    writer.appendRecords(0, requests("GET", keyPrefix, 250));
    await writer.fail("cut short by the test");
    expect((await store.get(id)).histograms).toEqual([]);

    const input = await loadRunReportInput(store, id);
    expect(input.meta.status).toBe("failed");
    const phases = input.summary.points[0]?.phases ?? [];
    expect(input.histograms.map((phase) => phase.op)).toEqual(["PUT", "GET"]);
    for (const [index, histograms] of input.histograms.entries()) {
      const latency = decodeHistogram(histograms.latency);
      expect(latency.totalCount).toBe([399, 249][index]);
      expect(tallyStatsMs(tallyOfHistogram(latency))?.p99).toBe(phases[index]?.latencyMs?.p99);
      latency.destroy();
    }

    // Latency against request index: the successful requests, each as the summary counts it.
    expect(
      input.latencySeries.map(({ op, buckets }) => ({
        op,
        count: buckets.reduce((sum, bucket) => sum + bucket.count, 0),
        min: Math.min(...buckets.map((bucket) => bucket.min)),
        max: Math.max(...buckets.map((bucket) => bucket.max)),
        sumMs: buckets.reduce((sum, bucket) => sum + bucket.mean * bucket.count, 0),
      })),
    ).toEqual(
      phases.map((phase) => ({
        op: phase.op,
        count: phase.requests - phase.errors,
        min: phase.latencyMs?.min,
        max: phase.latencyMs?.max,
        // The summary's mean is rounded to the µs.
        sumMs: expect.closeTo((phase.latencyMs?.mean ?? 0) * (phase.requests - phase.errors), 0),
      })),
    );

    // The JSON report (the CLI's `taillab report`) carries them too.
    const json = await renderStoredReport(store, [id], {
      format: "json",
      language: "en",
      requests: false,
      perSecond: false,
      bom: false,
      baselineIndex: 0,
    });
    const exported = JSON.parse(json) as { histograms: unknown[]; intervalLog: string };
    expect(exported.histograms).toEqual(input.histograms);
    // Its percentiles over time too: one second per request, rebuilt from the records.
    expect(input.intervals.map(({ op, intervals }) => `${op} ${intervals.length}`)).toEqual([
      "PUT 400",
      "GET 250",
    ]);
    expect(
      exported.intervalLog.split("\n").filter((line) => line.startsWith("Tag=p0/PUT,")),
    ).toHaveLength(399);

    // A Chinese HTML report carries the app's CJK font, both weights; an English one none.
    const html = (language: "en" | "zh-CN") =>
      renderStoredReport(store, [id], { ...HTML, language });
    const chinese = await html("zh-CN");
    for (const weight of [400, 700]) {
      const woff2 = await readFile(
        new URL(`../../../assets/fonts/taillab-cjk-${weight}.woff2`, import.meta.url),
      );
      expect(chinese).toContain(`url(data:font/woff2;base64,${woff2.toString("base64")})`);
    }
    expect(await html("en")).not.toContain("@font-face");
  });
});

const HTML = {
  format: "html",
  language: "en",
  requests: false,
  perSecond: false,
  bom: false,
  baselineIndex: 0,
} as const;
