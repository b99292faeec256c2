import {
  RunSpecSchema,
  type Headline,
  type Operation,
  type PhaseHistograms,
  type PointSummary,
  type RequestMode,
  type RunDetail,
  type RunIndexEntry,
  type RunSpecInput,
  type RunStatus,
  type RunSummary,
} from "@taillab/api";
import {
  createLatencyHistogram,
  createRandom,
  createSeriesDecimator,
  encodeHistogram,
  expandSweep,
  recordLatencyUs,
  summarizePhase,
} from "@taillab/core";

export interface RunDetailFixtureOptions {
  runId?: string;
  name?: string;
  status?: RunStatus;
  mode?: RequestMode;
  tags?: string[];
  notes?: string;
  spec?: Partial<RunSpecInput>;
  ops?: Operation[];
  /** Median latency of a 32 KiB PUT with 8 clients, in µs; other points scale from it. */
  medianUs?: number;
  /** One-second stalls per phase. */
  stalls?: number;
  seed?: number;
  createdAt?: string;
}

/**
 * A run as getRun returns it, built the way the backend builds one: lognormal latencies with a
 * few one-second stalls folded into HDR histograms, summarised by core's summarizePhase, and a
 * latency-by-index series decimated by core. Deterministic for a seed.
 */
export function runDetailFixture(options: RunDetailFixtureOptions = {}): RunDetail {
  const runId = options.runId ?? "20250301-101500-ab12";
  const mode = options.mode ?? "normal";
  const spec = RunSpecSchema.parse({
    clients: [8],
    samples: [256],
    objectSize: ["32KiB"],
    mode,
    ...options.spec,
  });
  const random = createRandom(options.seed ?? 7);
  const ops = options.ops ?? ["PUT", "GET", "DELETE"];
  const histograms: PhaseHistograms[] = [];
  const latencySeries: RunDetail["latencySeries"] = [];
  const points: PointSummary[] = expandSweep(spec).map((params, pointIndex) => {
    const phases = ops.map((op) => {
      const latency = createLatencyHistogram();
      const ttfb = createLatencyHistogram();
      const requests = params.samples;
      const scale = (1 + params.objectSizeBytes / (256 * 1024)) * (1 + params.clients / 16);
      const medianUs = (options.medianUs ?? 6000) * scale * (op === "GET" ? 0.6 : 1);
      const stalls = new Set<number>();
      while (stalls.size < Math.min(options.stalls ?? 2, requests)) {
        stalls.add(Math.floor(random.next() * requests));
      }
      const decimator = createSeriesDecimator(requests);
      for (let index = 0; index < requests; index += 1) {
        const valueUs = stalls.has(index) ? 1_000_000 : random.lognormal(medianUs, 0.35);
        recordLatencyUs(latency, valueUs);
        recordLatencyUs(ttfb, valueUs / 2);
        decimator.add(valueUs / 1000);
      }
      const summary = summarizePhase({
        op,
        requests,
        errorsByCode: op === "GET" ? { SlowDown: 1 } : {},
        bytes: op === "DELETE" ? 0 : requests * params.objectSizeBytes,
        durationMs: (latency.mean * requests) / params.clients / 1000,
        latency,
        ttfb,
      });
      if (mode !== "normal" && op !== "DELETE") {
        const extra = Math.round(requests * 0.05);
        summary.hedge = {
          delayMs: mode === "tied" ? 0 : summary.latencyMs.p90,
          budgetPct: 10,
          attempts: requests + extra,
          extraPct: (extra / requests) * 100,
          aborted: extra - 2,
          wastedBytes: (extra - 2) * params.objectSizeBytes,
          wonByBackup: 2,
        };
      }
      histograms.push({
        pointIndex,
        op,
        latency: encodeHistogram(latency),
        ttfb: encodeHistogram(ttfb),
        service: null,
      });
      latencySeries.push({ pointIndex, op, buckets: decimator.finish() });
      latency.destroy();
      ttfb.destroy();
      return summary;
    });
    return { params, phases };
  });
  const createdAt = options.createdAt ?? "2025-03-01T10:15:00.000Z";
  const summary: RunSummary = {
    schemaVersion: 1,
    runId,
    startedAt: createdAt,
    finishedAt: new Date(Date.parse(createdAt) + 60_000).toISOString(),
    spec,
    endpointUrls: ["http://127.0.0.1:41234/"],
    server: "TailLab-Testbed/0.1",
    mode,
    loop: "closed",
    stopped: false,
    points,
  };
  return {
    meta: {
      schemaVersion: 1,
      id: runId,
      name: options.name ?? "Lab 3 tail",
      tags: options.tags ?? ["lab-3"],
      notes: options.notes ?? "",
      createdAt,
      spec,
      environment: {
        taillabVersion: "0.1.0",
        os: "linux 6.1.0 x64",
        cpuModel: "AMD EPYC 7B13",
        cpuCount: 8,
        memoryBytes: 16 * 1024 ** 3,
        node: "v24.0.0",
        server: "TailLab-Testbed/0.1",
      },
      keyPrefix: `taillab/${runId}`,
      status: options.status ?? "complete",
      error: options.status === "failed" ? "endpoint http://127.0.0.1:41234: refused" : null,
    },
    summary,
    histograms,
    latencySeries,
  };
}

/** The library's line for a run, as the store's index holds it. */
export function indexEntryOf(detail: RunDetail): RunIndexEntry {
  const { meta, summary } = detail;
  const headline: Headline[] = (summary.points[0]?.phases ?? []).map((phase) => ({
    op: phase.op,
    p50Ms: phase.latencyMs.p50,
    p99Ms: phase.latencyMs.p99,
    p999Ms: phase.latencyMs.p999,
    opsPerSec: phase.opsPerSec,
    errors: phase.errors,
  }));
  return {
    id: meta.id,
    name: meta.name,
    tags: meta.tags,
    notes: meta.notes,
    createdAt: meta.createdAt,
    status: meta.status,
    mode: summary.mode,
    loop: summary.loop,
    points: summary.points.map((point) => point.params),
    recordCount: summary.points.reduce(
      (sum, point) => sum + point.phases.reduce((total, phase) => total + phase.requests, 0),
      0,
    ),
    headline,
  };
}

export function indexEntry(overrides: Partial<RunIndexEntry> = {}): RunIndexEntry {
  return {
    id: "run-1",
    name: "Run one",
    tags: [],
    notes: "",
    createdAt: "2025-03-01T10:00:00.000Z",
    status: "complete",
    mode: "normal",
    loop: "closed",
    points: [{ clients: 8, samples: 256, objectSizeBytes: 32 * 1024 }],
    recordCount: 768,
    headline: [
      { op: "PUT", p50Ms: 5.5, p99Ms: 12.25, p999Ms: 40.125, opsPerSec: 812.5, errors: 0 },
      { op: "GET", p50Ms: 3.5, p99Ms: 9.75, p999Ms: 30.5, opsPerSec: 1204.25, errors: 1 },
    ],
    ...overrides,
  };
}
