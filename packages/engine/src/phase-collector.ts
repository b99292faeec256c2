import type {
  HedgeSummary,
  Operation,
  PhaseHistograms,
  PhaseSummary,
  RunProgress,
} from "@taillab/api";
import {
  createLatencyHistogram,
  encodeHistogram,
  latencyStatsMs,
  mergeEncodedHistogram,
  summarizePhase,
} from "@taillab/core";
import { emptyHedgeCounters } from "./phase-recorder.ts";
import type { HedgeCounters, PhaseDone, WorkerReport } from "./worker-protocol.ts";

export type PhaseProgress = Pick<
  RunProgress,
  "op" | "done" | "total" | "errors" | "opsPerSec" | "p50Ms" | "p99Ms" | "elapsedMs"
>;

/** ops/s over about the last second, so the figure follows the run rather than its average. */
const RATE_WINDOW_MS = 1000;

export type EncodedPhaseHistograms = Omit<PhaseHistograms, "pointIndex" | "op">;

export interface PhaseShape {
  op: Operation;
  total: number;
  openLoop: boolean;
  /** The hedge budget when backups are on for this phase, else null (no hedge summary). */
  hedgeBudgetPct: number | null;
}

/** Merges the workers' reports of one phase into its summary and into live progress. */
export class PhaseCollector {
  private readonly shape: PhaseShape;
  private readonly startedAtMs: number;
  private readonly latency = createLatencyHistogram();
  private readonly ttfb = createLatencyHistogram();
  private readonly service = createLatencyHistogram();
  private readonly hedge: HedgeCounters = emptyHedgeCounters();
  private missedStarts = 0;
  private readonly errorsByCode: Record<string, number> = {};
  private readonly rateSamples: { atMs: number; done: number }[] = [];
  private requests = 0;
  private errors = 0;
  private bytes = 0;
  private firstStartUs: number | null = null;
  private lastEndUs: number | null = null;

  constructor(shape: PhaseShape, nowMs: number) {
    this.shape = shape;
    this.startedAtMs = nowMs;
  }

  addReport(report: WorkerReport): void {
    mergeEncodedHistogram(this.latency, report.latencyHistogram);
    mergeEncodedHistogram(this.ttfb, report.ttfbHistogram);
    if (report.serviceHistogram !== null) {
      mergeEncodedHistogram(this.service, report.serviceHistogram);
    }
    for (const counter of Object.keys(this.hedge) as (keyof HedgeCounters)[]) {
      this.hedge[counter] += report.hedge[counter];
    }
    this.missedStarts += report.missedStarts;
    for (const [code, count] of Object.entries(report.errorsByCode)) {
      this.errorsByCode[code] = (this.errorsByCode[code] ?? 0) + count;
      this.errors += count;
    }
    this.requests += report.requests;
    this.bytes += report.bytes;
  }

  /** One worker's time span for this collector's operation. */
  addSpan(span: PhaseDone["spans"][number]): void {
    if (span.firstStartUs !== null) {
      this.firstStartUs = Math.min(this.firstStartUs ?? span.firstStartUs, span.firstStartUs);
    }
    if (span.lastEndUs !== null) {
      this.lastEndUs = Math.max(this.lastEndUs ?? span.lastEndUs, span.lastEndUs);
    }
  }

  get requestCount(): number {
    return this.requests;
  }

  progress(nowMs: number): PhaseProgress {
    this.rateSamples.push({ atMs: nowMs, done: this.requests });
    while ((this.rateSamples[0]?.atMs ?? nowMs) < nowMs - RATE_WINDOW_MS) this.rateSamples.shift();
    const oldest = this.rateSamples[0] ?? { atMs: nowMs, done: this.requests };
    const windowMs = nowMs - oldest.atMs;
    const stats = this.latency.totalCount > 0 ? latencyStatsMs(this.latency) : null;
    return {
      op: this.shape.op,
      done: this.requests,
      total: this.shape.total,
      errors: this.errors,
      opsPerSec: windowMs > 0 ? ((this.requests - oldest.done) * 1000) / windowMs : 0,
      p50Ms: stats?.p50 ?? null,
      p99Ms: stats?.p99 ?? null,
      elapsedMs: nowMs - this.startedAtMs,
    };
  }

  /** Duration runs from the first request's start to the last one's end, across all workers. */
  summary(): PhaseSummary {
    const durationUs =
      this.firstStartUs === null || this.lastEndUs === null
        ? 0
        : this.lastEndUs - this.firstStartUs;
    const summary = summarizePhase({
      op: this.shape.op,
      requests: this.requests,
      errorsByCode: this.errorsByCode,
      bytes: this.bytes,
      durationMs: durationUs / 1000,
      latency: this.latency,
      ttfb: this.ttfb,
    });
    return {
      ...summary,
      ...(this.shape.openLoop
        ? { serviceMs: latencyStatsMs(this.service), missedStarts: this.missedStarts }
        : {}),
      ...(this.shape.hedgeBudgetPct === null
        ? {}
        : { hedge: summarizeHedging(this.hedge, this.requests, this.shape.hedgeBudgetPct) }),
    };
  }

  /** The merged histograms, encoded, for the results store and reports. */
  encodedHistograms(): EncodedPhaseHistograms {
    return {
      latency: encodeHistogram(this.latency),
      ttfb: encodeHistogram(this.ttfb),
      service: this.shape.openLoop ? encodeHistogram(this.service) : null,
    };
  }

  destroy(): void {
    this.latency.destroy();
    this.ttfb.destroy();
    this.service.destroy();
  }
}

function summarizeHedging(
  counters: HedgeCounters,
  requests: number,
  budgetPct: number,
): HedgeSummary {
  const extra = counters.attempts - requests;
  return {
    delayMs: counters.armed > 0 ? round3(counters.delaySumMs / counters.armed) : null,
    budgetPct,
    attempts: counters.attempts,
    extraPct: requests > 0 ? round3((Math.max(0, extra) * 100) / requests) : 0,
    aborted: counters.aborted,
    wastedBytes: counters.wastedBytes,
    wonByBackup: counters.wonByBackup,
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
