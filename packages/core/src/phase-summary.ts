import type { Operation, PhaseSummary } from "@taillab/api";
import { latencyStatsMs, type LatencyHistogram } from "./latency-histogram.ts";

export interface PhaseTotals {
  op: Operation;
  requests: number;
  errorsByCode: Record<string, number>;
  bytes: number;
  durationMs: number;
  latency: LatencyHistogram;
  ttfb: LatencyHistogram;
}

const BYTES_PER_MIB = 1024 * 1024;

export function summarizePhase(totals: PhaseTotals): PhaseSummary {
  const seconds = totals.durationMs / 1000;
  const errors = Object.values(totals.errorsByCode).reduce((sum, count) => sum + count, 0);
  return {
    op: totals.op,
    requests: totals.requests,
    errors,
    errorsByCode: { ...totals.errorsByCode },
    bytes: totals.bytes,
    durationMs: round3(totals.durationMs),
    throughputMBps: seconds > 0 ? round3(totals.bytes / BYTES_PER_MIB / seconds) : 0,
    opsPerSec: seconds > 0 ? round3(totals.requests / seconds) : 0,
    latencyMs: latencyStatsMs(totals.latency),
    ttfbMs: latencyStatsMs(totals.ttfb),
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
