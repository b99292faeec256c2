import {
  HISTOGRAM_PRECISION_PCT,
  latencyParts,
  percentileRankInterval,
  restsOnFew,
} from "@taillab/core";
import { LogicalRequestReader, openResultsStore, type ResultsStore } from "@taillab/store";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAndRecord } from "./recorded-run.ts";
import { loadRunReportInput, renderStoredReport } from "./run-report.ts";

/**
 * A real run on the embedded testbed: each second's stored percentiles carry intervals that hold
 * them, and whose ends are the values of their ranks among that second's requests on disk.
 */

let dir = "";
let store: ResultsStore;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "taillab-per-second-"));
  store = await openResultsStore(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const US_PER_SECOND = 1_000_000;
const LEVELS = { p50: 50, p99: 99, p999: 99.9 } as const;

/** Each second's successful measured latencies (µs as the histograms record them), sorted. */
async function latenciesBySecond(runId: string): Promise<Map<number, number[]>> {
  const bySecond = new Map<number, number[]>();
  const reader = new LogicalRequestReader((_pointIndex, request) => {
    const parts = request.measured ? latencyParts(request) : null;
    const winner = request.winner === null ? undefined : request.attempts[request.winner];
    if (!parts || !winner) return;
    const second = Math.floor(winner.endUs / US_PER_SECOND);
    bySecond.set(second, [
      ...(bySecond.get(second) ?? []),
      Math.max(1, Math.round(parts.latencyUs)),
    ]);
  });
  reader.add(await store.loadRecords(runId));
  reader.flush();
  for (const values of bySecond.values()) values.sort((a, b) => a - b);
  return bySecond;
}

describe("per-second percentile intervals of a real run", () => {
  it("hold each second's percentile and agree with that second's requests on disk", async () => {
    const summary = await runAndRecord(
      {
        clients: 4,
        // The duration ends the phase; the samples only bound it.
        samples: 10_000_000,
        objectSize: "1KiB",
        workload: { ops: "get", prepareObjects: 20, durationMs: "2500ms" },
        testbed: { profile: { serviceTime: { kind: "lognormal", medianMs: 1, sigma: 0.5 } } },
      },
      { env: {} },
      {},
      { store },
    );
    const input = await loadRunReportInput(store, summary.runId);
    const [get] = input.intervals;
    expect(get?.op).toBe("GET");
    const seconds = get?.intervals ?? [];
    expect(seconds.length).toBeGreaterThanOrEqual(2);
    const onDisk = await latenciesBySecond(summary.runId);
    let fewBeyond = 0;
    for (const second of seconds) {
      const values = onDisk.get(second.startMs / 1000) ?? [];
      expect(second.requests).toBe(values.length);
      for (const [name, level] of Object.entries(LEVELS) as [keyof typeof LEVELS, number][]) {
        const valueMs = second[`${name}Ms`] as number;
        const interval = second.percentileIntervals?.[name];
        const ranks = percentileRankInterval(values.length, level);
        for (const [rank, endMs] of [
          [ranks.low, interval?.lo],
          [ranks.high, interval?.hi],
        ] as const) {
          if (rank === null) {
            expect(endMs).toBeNull();
            continue;
          }
          const exactMs = (values[rank - 1] as number) / 1000;
          expect(Math.abs((endMs as number) - exactMs)).toBeLessThanOrEqual(
            (exactMs * HISTOGRAM_PRECISION_PCT) / 100 + 0.001,
          );
        }
        if (interval?.lo != null) expect(interval.lo).toBeLessThanOrEqual(valueMs);
        if (interval?.hi != null) expect(interval.hi).toBeGreaterThanOrEqual(valueMs);
        if (restsOnFew(second.requests, level)) fewBeyond += 1;
      }
    }
    // A second of a few thousand requests or fewer: its p99.9 rests on few.
    expect(fewBeyond).toBeGreaterThan(0);

    // The JSON export carries the same seconds; the per-second CSV one row each.
    const options = { language: "en", requests: false, bom: false, baselineIndex: 0 } as const;
    const json = await renderStoredReport(store, [summary.runId], {
      ...options,
      format: "json",
      perSecond: false,
    });
    expect(JSON.parse(json).intervals).toEqual(input.intervals);
    const csv = await renderStoredReport(store, [summary.runId], {
      ...options,
      format: "csv",
      perSecond: true,
    });
    const rows = csv.trimEnd().split("\r\n");
    expect(rows).toHaveLength(1 + input.intervals.flatMap((phase) => phase.intervals).length);
    expect(rows[0]).toContain("99.9th %ile 95% Low (ms)");
  });
});
