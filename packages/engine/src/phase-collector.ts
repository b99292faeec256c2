import type { Operation, PhaseSummary, RunProgress } from "@taillab/api";
import {
  createLatencyHistogram,
  latencyStatsMs,
  mergeEncodedHistogram,
  summarizePhase,
} from "@taillab/core";
import type { PhaseDone, WorkerReport } from "./worker-protocol.ts";

export type PhaseProgress = Pick<
  RunProgress,
  "op" | "done" | "total" | "errors" | "opsPerSec" | "p50Ms" | "p99Ms" | "elapsedMs"
>;

/** ops/s over about the last second, so the figure follows the run rather than its average. */
const RATE_WINDOW_MS = 1000;

/** Merges the workers' reports of one phase into its summary and into live progress. */
export class PhaseCollector {
  private readonly op: Operation;
  private readonly total: number;
  private readonly startedAtMs: number;
  private readonly latency = createLatencyHistogram();
  private readonly ttfb = createLatencyHistogram();
  private readonly errorsByCode: Record<string, number> = {};
  private readonly rateSamples: { atMs: number; done: number }[] = [];
  private requests = 0;
  private errors = 0;
  private bytes = 0;
  private firstStartUs: number | null = null;
  private lastEndUs: number | null = null;

  constructor(op: Operation, total: number, nowMs: number) {
    this.op = op;
    this.total = total;
    this.startedAtMs = nowMs;
  }

  addReport(report: WorkerReport): void {
    mergeEncodedHistogram(this.latency, report.latencyHistogram);
    mergeEncodedHistogram(this.ttfb, report.ttfbHistogram);
    for (const [code, count] of Object.entries(report.errorsByCode)) {
      this.errorsByCode[code] = (this.errorsByCode[code] ?? 0) + count;
      this.errors += count;
    }
    this.requests += report.requests;
    this.bytes += report.bytes;
  }

  addPhaseDone(done: PhaseDone): void {
    if (done.firstStartUs !== null) {
      this.firstStartUs = Math.min(this.firstStartUs ?? done.firstStartUs, done.firstStartUs);
    }
    if (done.lastEndUs !== null) {
      this.lastEndUs = Math.max(this.lastEndUs ?? done.lastEndUs, done.lastEndUs);
    }
  }

  progress(nowMs: number): PhaseProgress {
    this.rateSamples.push({ atMs: nowMs, done: this.requests });
    while ((this.rateSamples[0]?.atMs ?? nowMs) < nowMs - RATE_WINDOW_MS) this.rateSamples.shift();
    const oldest = this.rateSamples[0] ?? { atMs: nowMs, done: this.requests };
    const windowMs = nowMs - oldest.atMs;
    const stats = this.latency.totalCount > 0 ? latencyStatsMs(this.latency) : null;
    return {
      op: this.op,
      done: this.requests,
      total: this.total,
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
    return summarizePhase({
      op: this.op,
      requests: this.requests,
      errorsByCode: this.errorsByCode,
      bytes: this.bytes,
      durationMs: durationUs / 1000,
      latency: this.latency,
      ttfb: this.ttfb,
    });
  }

  destroy(): void {
    this.latency.destroy();
    this.ttfb.destroy();
  }
}
