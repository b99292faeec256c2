import type { IntervalCounts, PhaseSummary, RunSummary } from "@taillab/api";
import {
  createLatencyHistogram,
  formatIntervalLog,
  intervalsFromLog,
  readIntervalLog,
  sumIntervalCounts,
  type LatencyHistogram,
} from "@taillab/core";
import { openResultsStore, RecordsSummarizer, type ResultsStore } from "@taillab/store";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAndRecord } from "./recorded-run.ts";

/**
 * One accounting: for real runs on the embedded testbed, the summary the engine made (workers'
 * deltas merged by the coordinator, repetitions merged by the backend) equals, figure for figure,
 * the one the results store rebuilds from the records on disk: every point's phases, a repeated
 * point's repetitions and their trimmed means, and the percentiles of every second.
 */

let dir = "";
let store: ResultsStore;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "taillab-equivalence-"));
  store = await openResultsStore(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stalls = {
  serviceTime: { kind: "lognormal", medianMs: 1, sigma: 0.3 },
  stalls: { probability: 0.02, durationMs: 60 },
};
const twoReplicas = { replicas: 2, profile: stalls, seed: 5 };

const INJECTED_FAULTS = "503s and resets injected";

const RUNS: [string, Record<string, unknown>][] = [
  ["closed loop", { clients: 4, samples: 600, objectSize: "2KiB", workers: 2 }],
  [
    "open loop, Poisson, several workers",
    {
      clients: 8,
      objectSize: "1KiB",
      workers: 3,
      openLoop: { rateHz: "800/s", arrivals: "poisson", durationMs: "600ms" },
    },
  ],
  [
    "hedged at p90",
    {
      clients: 4,
      samples: 600,
      objectSize: "1KiB",
      mode: "hedged",
      testbed: twoReplicas,
      hedge: { delay: "p90", minSamples: 5 },
    },
  ],
  ["tied", { clients: 4, samples: 300, objectSize: "1KiB", mode: "tied", testbed: twoReplicas }],
  [
    INJECTED_FAULTS,
    {
      clients: 4,
      samples: 400,
      objectSize: "4KiB",
      workload: { ops: "get:70,put:30", prepareObjects: 20 },
      testbed: {
        profile: { ...stalls, errors: { slowDownRate: 0.1, resetRate: 0.05 } },
        seed: 7,
      },
    },
  ],
  [
    "adaptive, two points, repeated",
    {
      clients: [2, 4],
      samples: 200,
      objectSize: "1KiB",
      mode: "adaptive",
      repeat: 2,
      testbed: twoReplicas,
      hedge: { minSamples: 5 },
    },
  ],
  [
    "a mix, repeated",
    {
      clients: 2,
      samples: 200,
      objectSize: "1KiB",
      repeat: 3,
      workload: { ops: "get:60,put:30,delete:10", prepareObjects: 50 },
    },
  ],
  [
    "a mix with prepared objects and a warm-up",
    {
      clients: 4,
      samples: 800,
      objectSize: "2KiB",
      workers: 2,
      workload: {
        ops: "get:50,put:20,head:10,list:5,delete:10,copy:5",
        prepareObjects: 150,
        warmupMs: "150ms",
      },
    },
  ],
];

describe("the engine's summary and the one rebuilt from the records", () => {
  it.each(RUNS)("agree figure for figure: %s", async (name, spec) => {
    const engine = await runAndRecord(spec, { env: {} }, {}, { store });
    const rebuilt = await store.summarizeFromRecords(engine.runId);
    expect(figuresOf(rebuilt)).toEqual(figuresOf(engine));
    const repeat = typeof spec.repeat === "number" ? spec.repeat : 1;
    for (const point of engine.points) {
      expect(point.repetitions?.length ?? 1).toBe(repeat);
    }
    const seconds = await intervalsOf(engine.runId);
    expect(seconds.rebuilt).toEqual(seconds.engine);
    expect(seconds.engine.length).toBeGreaterThan(0);
    const byPhase = (a: { phase: string }, b: { phase: string }) => a.phase.localeCompare(b.phase);
    const totals = phaseTotals(engine).sort(byPhase);
    expect((await perSecondTotals(engine.runId)).sort(byPhase)).toEqual(totals);
    if (name === INJECTED_FAULTS) {
      // A 503 and a reset fail under codes of their own, each counted in the seconds it ended in.
      const codes = new Set(totals.flatMap((phase) => Object.keys(phase.errorsByCode)));
      expect(codes.size).toBeGreaterThanOrEqual(2);
    }
    // Every phase counted something, and no figure is what an empty phase would show.
    const phases = engine.points.flatMap((point) => point.phases);
    expect(phases.every((phase) => phase.requests > 0)).toBe(true);
    expect(phases.every((phase) => phase.latencyMs !== null)).toBe(true);
    // Connects and uploads are figures of their own, in both: each client's first request
    // waited for a new connection.
    expect(phases.every((phase) => phase.connectMs && phase.uploadMs)).toBe(true);
    expect(Math.max(...phases.map((phase) => phase.connectMs?.max ?? 0))).toBeGreaterThan(0);
    const { records } = await store.get(engine.runId).then((run) => ({ records: run.recordCount }));
    expect(records).toBeGreaterThan(0);
  });

  it("leaves prepared objects and the warm-up out of the figures, but keeps their records", async () => {
    const spec = RUNS.at(-1)?.[1] ?? {};
    const engine = await runAndRecord(spec, { env: {} }, {}, { store });
    const counted = engine.points[0]?.phases.reduce((sum, phase) => sum + phase.requests, 0) ?? 0;
    let unmeasured = 0;
    let measured = 0;
    for await (const { record } of store.records(engine.runId)) {
      if (record.attempt !== 1 || record.op === "UPLOAD_PART") continue;
      if (record.measured) measured += 1;
      else unmeasured += 1;
    }
    // 150 prepared objects, and the requests of the first 150 ms.
    expect(unmeasured).toBeGreaterThan(150);
    expect(measured).toBe(counted);
  });
});

/**
 * What both must agree on: every point's phases, repetitions and their statistics (times of the
 * whole run differ by design; the client's health and the reconnects that cancels caused are
 * measured by the workers as they run, not kept in the records).
 */
function figuresOf(summary: RunSummary) {
  const withoutHealth = (phases: readonly PhaseSummary[]) =>
    phases.map(({ client: _measuredOnly, hedge, ...figures }) => {
      if (!hedge) return figures;
      const cost = { ...hedge };
      delete cost.reconnects;
      delete cost.reconnectMeanMs;
      return { ...figures, hedge: cost };
    });
  return summary.points.map(({ params, phases, repetitions, repetitionStats }) => ({
    params,
    phases: withoutHealth(phases),
    repetitions: repetitions?.map((repetition) => ({ phases: withoutHealth(repetition.phases) })),
    repetitionStats,
  }));
}

/** Each phase's bytes and errors by code, as its summary says. */
function phaseTotals(summary: RunSummary) {
  return summary.points.flatMap((point, pointIndex) =>
    point.phases.map(({ op, bytes, errorsByCode }) => ({
      phase: `p${pointIndex}/${op}`,
      bytes,
      errorsByCode: { ...errorsByCode },
    })),
  );
}

/** Each phase's bytes and errors by code, added up from its stored seconds. */
async function perSecondTotals(runId: string) {
  const phases = intervalsFromLog(await store.intervalLog(runId));
  return phases.map(({ pointIndex, op, intervals }) => {
    const errorsByCode: Record<string, number> = {};
    for (const second of intervals) {
      for (const [code, count] of Object.entries(second.errorsByCode ?? {})) {
        errorsByCode[code] = (errorsByCode[code] ?? 0) + count;
      }
    }
    return {
      phase: `p${pointIndex}/${op}`,
      bytes: intervals.reduce((sum, second) => sum + (second.bytes ?? Number.NaN), 0),
      errorsByCode,
    };
  });
}

/**
 * The percentiles of every second as the engine's accounts wrote them to intervals.hlog, and as
 * the records rebuild them: one log line each, sorted (the log is in the order phases ended).
 */
async function intervalsOf(runId: string): Promise<{ engine: string[]; rebuilt: string[] }> {
  const run = await store.get(runId);
  const summarizer = new RecordsSummarizer(run.meta);
  summarizer.add(await store.loadRecords(runId));
  const { intervalLines } = summarizer.finish(run.summary?.status ?? null);
  return {
    engine: comparableLines(await store.intervalLog(runId)),
    rebuilt: comparableLines(formatIntervalLog(0, intervalLines)),
  };
}

/**
 * The log's lines, one per second and kind (its bytes and errors by code too): a second written twice (an answer that came after
 * its line was written, or two repetitions meeting in it) is read as their sum, as
 * intervalsFromLog reads it. Each histogram is written as its distribution of values: one
 * merged from the workers' (or from two lines) and one filled request by request hold the same
 * counts in arrays grown differently, so their encodings differ where their contents do not.
 */
function comparableLines(log: string): string[] {
  const histograms = new Map<string, { histogram: LatencyHistogram; maxUs: number }>();
  const counts = new Map<string, IntervalCounts[]>();
  readIntervalLog(log, (line) => {
    const key = `${line.pointIndex}/${line.op}/${line.kind}/${line.startS}`;
    if (line.kind === "counts") {
      counts.set(key, [...(counts.get(key) ?? []), line.counts]);
      return;
    }
    const second = histograms.get(key) ?? { histogram: createLatencyHistogram(), maxUs: 0 };
    histograms.set(key, second);
    second.histogram.add(line.histogram);
    second.maxUs = Math.max(second.maxUs, line.maxUs);
  });
  const countsLines = [...counts].map(([key, parts]) => {
    // Workers meet codes in their own order: compared as sorted (code, count) pairs.
    const sum = sumIntervalCounts(parts);
    const codes = Object.entries(sum?.errorsByCode ?? {}).sort(([a], [b]) => a.localeCompare(b));
    return `${key} ${sum?.bytes} ${JSON.stringify(codes)}`;
  });
  const histogramLines = [...histograms].map(([key, { histogram, maxUs }]) => {
    const line = `${key} ${maxUs} ${histogram.outputPercentileDistribution()}`;
    histogram.destroy();
    return line;
  });
  return [...countsLines, ...histogramLines].sort();
}
