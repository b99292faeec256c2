import type { HedgeSummary, PhaseHistograms, PhaseSummary } from "@taillab/api";
import {
  createLatencyHistogram,
  encodeHistogram,
  latencyStatsMs,
  mergeEncodedHistogram,
  type LatencyHistogram,
} from "./latency-histogram.ts";
import { summarizePhase } from "./phase-summary.ts";

/** One repetition's phase: its summary and its merged histograms (encoded). */
export interface RepeatedPhase {
  summary: PhaseSummary;
  histograms: Omit<PhaseHistograms, "pointIndex" | "op">;
}

/**
 * Repetitions of one phase as a single phase: counts and durations added, percentiles from the
 * histograms merged — never averaged — so it reads like one run k times as long.
 */
export function mergeRepeatedPhases(repetitions: readonly RepeatedPhase[]): RepeatedPhase {
  const [first] = repetitions;
  if (!first) throw new RangeError("mergeRepeatedPhases: no repetitions");
  const merged = (pick: (histograms: RepeatedPhase["histograms"]) => string | null) => {
    const histogram: LatencyHistogram = createLatencyHistogram();
    for (const { histograms } of repetitions) {
      const encoded = pick(histograms);
      if (encoded !== null) mergeEncodedHistogram(histogram, encoded);
    }
    return histogram;
  };
  const latency = merged((histograms) => histograms.latency);
  const ttfb = merged((histograms) => histograms.ttfb);
  const sum = (value: (summary: PhaseSummary) => number) =>
    repetitions.reduce((total, { summary }) => total + value(summary), 0);
  const errorsByCode: Record<string, number> = {};
  for (const { summary } of repetitions) {
    for (const [code, count] of Object.entries(summary.errorsByCode)) {
      errorsByCode[code] = (errorsByCode[code] ?? 0) + count;
    }
  }
  const phase = summarizePhase({
    op: first.summary.op,
    requests: sum((summary) => summary.requests),
    errorsByCode,
    bytes: sum((summary) => summary.bytes),
    durationMs: sum((summary) => summary.durationMs),
    latency,
    ttfb,
  });
  const result: PhaseSummary = { ...phase };
  let serviceEncoded: string | null = null;
  if (first.histograms.service !== null) {
    const service = merged((histograms) => histograms.service);
    result.serviceMs = latencyStatsMs(service);
    result.missedStarts = sum((summary) => summary.missedStarts ?? 0);
    serviceEncoded = encodeHistogram(service);
    service.destroy();
  }
  const hedges = repetitions.flatMap(({ summary }) => (summary.hedge ? [summary.hedge] : []));
  if (hedges.length > 0) result.hedge = mergeHedgeSummaries(hedges, phase.requests);
  const histograms = {
    latency: encodeHistogram(latency),
    ttfb: encodeHistogram(ttfb),
    service: serviceEncoded,
  };
  latency.destroy();
  ttfb.destroy();
  return { summary: result, histograms };
}

function mergeHedgeSummaries(hedges: readonly HedgeSummary[], requests: number): HedgeSummary {
  const sum = (value: (hedge: HedgeSummary) => number) =>
    hedges.reduce((total, hedge) => total + value(hedge), 0);
  const attempts = sum((hedge) => hedge.attempts);
  const armed = hedges.filter((hedge) => hedge.delayMs !== null);
  return {
    // A plain mean over the repetitions that armed a backup: each is already a mean.
    delayMs:
      armed.length === 0
        ? null
        : armed.reduce((total, hedge) => total + (hedge.delayMs ?? 0), 0) / armed.length,
    budgetPct: hedges[0]?.budgetPct ?? 0,
    attempts,
    extraPct: requests > 0 ? (Math.max(0, attempts - requests) * 100) / requests : 0,
    aborted: sum((hedge) => hedge.aborted),
    wastedBytes: sum((hedge) => hedge.wastedBytes),
    wonByBackup: sum((hedge) => hedge.wonByBackup),
  };
}
