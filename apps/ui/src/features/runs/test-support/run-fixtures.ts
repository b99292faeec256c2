import type {
  Headline,
  HeadlineSpan,
  Operation,
  RequestMode,
  RunDetail,
  RunIndexEntry,
  RunSpecInput,
  RunStatus,
} from "@taillab/api";
import { headlineSpans, pointsRan } from "@taillab/core";
import { syntheticRun } from "@taillab/report/test-support";

export interface RunDetailFixtureOptions {
  runId?: string;
  name?: string;
  status?: RunStatus;
  mode?: RequestMode;
  tags?: string[];
  notes?: string;
  spec?: Partial<RunSpecInput>;
  ops?: Operation[];
  /** Median latency of a PUT, in µs, at the smallest load (default 6 000); the rest scale with it. */
  medianUs?: number;
  /** One-second stalls per phase. */
  stalls?: number;
  seed?: number;
  createdAt?: string;
}

/**
 * A run as getRun returns it: report's synthetic run (lognormal latencies with one-second stalls,
 * folded into HDR histograms and summarised by core, as the backend builds one) under the id,
 * status and date a test gives it. Deterministic for a seed.
 */
export function runDetailFixture(options: RunDetailFixtureOptions = {}): RunDetail {
  const runId = options.runId ?? "20250301-101500-ab12";
  const createdAt = options.createdAt ?? "2025-03-01T10:15:00.000Z";
  const status = options.status ?? "complete";
  const run = syntheticRun({
    name: options.name ?? "Lab 3 tail",
    notes: options.notes,
    tags: options.tags ?? ["lab-3"],
    spec: options.spec,
    mode: options.mode,
    seed: options.seed ?? 7,
    ops: options.ops ?? ["PUT", "GET", "DELETE"],
    stallsPerPhase: options.stalls ?? 2,
    latencyScale: (options.medianUs ?? 6000) / 6000,
  });
  return {
    meta: {
      ...run.meta,
      id: runId,
      createdAt,
      keyPrefix: `taillab/${runId}`,
      status,
      error: status === "failed" ? "endpoint http://127.0.0.1:41234: refused" : null,
    },
    summary: {
      ...run.summary,
      runId,
      startedAt: createdAt,
      finishedAt: new Date(Date.parse(createdAt) + 60_000).toISOString(),
    },
    histograms: run.histograms,
    latencySeries: run.latencySeries,
    intervals: run.intervals,
    damage: null,
  };
}

/** The library's line for a run, as the store's index holds it. */
export function indexEntryOf(detail: RunDetail): RunIndexEntry {
  const { meta, summary } = detail;
  const headline: Headline[] = (summary.points[0]?.phases ?? []).map((phase) => ({
    op: phase.op,
    p50Ms: phase.latencyMs?.p50 ?? null,
    p99Ms: phase.latencyMs?.p99 ?? null,
    p999Ms: phase.latencyMs?.p999 ?? null,
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
    pointsFinished: summary.points.filter((point) => point.finished).length,
    pointsRun: pointsRan(summary.points),
    recordCount: summary.points.reduce(
      (sum, point) => sum + point.phases.reduce((total, phase) => total + phase.requests, 0),
      0,
    ),
    headline,
    headlineSpan: headlineSpans(summary.points),
    endpoint: meta.spec.endpoints?.[0]?.url ?? null,
    damage: null,
    importedFrom: meta.imported?.tool ?? null,
  };
}

/** The span of a single point's figures: each low and high the same. */
export function onePointSpan(phase: Headline): HeadlineSpan {
  const same = (value: number | null) => (value === null ? null : { low: value, high: value });
  return {
    op: phase.op,
    points: phase.p50Ms === null ? 0 : 1,
    p50Ms: same(phase.p50Ms),
    p99Ms: same(phase.p99Ms),
    p999Ms: same(phase.p999Ms),
    opsPerSec: { low: phase.opsPerSec, high: phase.opsPerSec },
    errors: phase.errors,
  };
}

/** A single-point run's index line; a test's overrides win (its headline gives the spans). */
export function indexEntry(overrides: Partial<RunIndexEntry> = {}): RunIndexEntry {
  const headline: Headline[] = overrides.headline ?? [
    { op: "PUT", p50Ms: 5.5, p99Ms: 12.25, p999Ms: 40.125, opsPerSec: 812.5, errors: 0 },
    { op: "GET", p50Ms: 3.5, p99Ms: 9.75, p999Ms: 30.5, opsPerSec: 1204.25, errors: 1 },
  ];
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
    pointsFinished: 1,
    pointsRun: 1,
    recordCount: 768,
    headline,
    headlineSpan: headline.map(onePointSpan),
    endpoint: null,
    damage: null,
    importedFrom: null,
    ...overrides,
  };
}
