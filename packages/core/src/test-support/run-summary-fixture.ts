import {
  RunSpecSchema,
  type Operation,
  type PhaseSummary,
  type PointSummary,
  type RunPointParams,
  type RunSummary,
} from "@taillab/api";

/** Latency stats whose every percentile is derived from one number, so tests can predict them. */
export function statsFrom(p50: number) {
  return {
    min: p50 / 2,
    p25: p50 * 0.8,
    p50,
    p75: p50 * 1.2,
    p90: p50 * 1.5,
    p99: p50 * 3,
    p999: p50 * 6,
    p9999: p50 * 10,
    max: p50 * 20,
    mean: p50 * 1.1,
    stdev: p50 / 3,
  };
}

export function phaseFixture(
  op: Operation,
  p50: number,
  overrides: Partial<PhaseSummary> = {},
): PhaseSummary {
  return {
    op,
    loop: "closed",
    requests: 256,
    errors: 0,
    errorsByCode: {},
    bytes: 256 * 4096,
    durationMs: 1000,
    throughputMBps: 1,
    opsPerSec: 256,
    steady: null,
    latencyMs: statsFrom(p50),
    clientQueueMs: statsFrom(p50 / 20),
    serviceMs: statsFrom(p50 * 0.95),
    ttfbMs: statsFrom(p50 / 2),
    transferMs: statsFrom(p50 / 4),
    missedStarts: 0,
    tail: null,
    ...overrides,
  };
}

export function pointFixture(params: RunPointParams, phases: PhaseSummary[]): PointSummary {
  return { params, finished: true, phases };
}

export function runFixture(
  runId: string,
  points: PointSummary[],
  overrides: Partial<RunSummary> = {},
): RunSummary {
  return {
    schemaVersion: 2,
    runId,
    startedAt: "2025-03-01T10:00:00.000Z",
    finishedAt: "2025-03-01T10:01:00.000Z",
    spec: RunSpecSchema.parse({ clients: [1], samples: [256], objectSize: ["4KiB"] }),
    endpointUrls: ["http://127.0.0.1:9000/"],
    server: null,
    mode: "normal",
    loop: "closed",
    status: "complete",
    pointCount: Math.max(1, points.length),
    points,
    ...overrides,
  };
}
