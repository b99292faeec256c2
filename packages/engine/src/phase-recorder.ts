import type { Operation, RequestRecord } from "@taillab/api";
import {
  createLatencyHistogram,
  encodeHistogram,
  recordLatencyUs,
  type LatencyHistogram,
} from "@taillab/core";
import type { RequestOutcome } from "./transport/index.ts";
import type { WorkerReport } from "./worker-protocol.ts";

/**
 * Folds one worker's requests into HDR histograms and a batch of raw records, and hands them over
 * as a delta at every report, so the coordinator merges histograms instead of averaging figures.
 */
export class PhaseRecorder {
  private readonly op: Operation;
  private latency: LatencyHistogram = createLatencyHistogram();
  private ttfb: LatencyHistogram = createLatencyHistogram();
  private records: RequestRecord[] = [];
  private errorsByCode: Record<string, number> = {};
  private bytes = 0;
  private requests = 0;
  firstStartUs: number | null = null;
  lastEndUs: number | null = null;

  constructor(op: Operation) {
    this.op = op;
  }

  record(key: string, outcome: RequestOutcome): void {
    this.requests += 1;
    this.firstStartUs = Math.min(this.firstStartUs ?? outcome.startUs, outcome.startUs);
    this.lastEndUs = Math.max(this.lastEndUs ?? outcome.endUs, outcome.endUs);
    this.records.push({
      op: this.op,
      key,
      bytes: outcome.bytes,
      intendedStartUs: outcome.startUs,
      startUs: outcome.startUs,
      firstByteUs: outcome.firstByteUs,
      endUs: outcome.endUs,
      status: outcome.status,
      error: outcome.error,
      attempt: 1,
    });
    if (outcome.error !== null) {
      this.errorsByCode[outcome.error] = (this.errorsByCode[outcome.error] ?? 0) + 1;
      return;
    }
    this.bytes += outcome.bytes;
    recordLatencyUs(this.latency, outcome.endUs - outcome.startUs);
    recordLatencyUs(this.ttfb, outcome.firstByteUs - outcome.startUs);
  }

  /** The delta since the last call; the recorder starts afresh. */
  takeReport(): WorkerReport {
    const report: WorkerReport = {
      type: "report",
      records: this.records,
      latencyHistogram: encodeHistogram(this.latency),
      ttfbHistogram: encodeHistogram(this.ttfb),
      errorsByCode: this.errorsByCode,
      bytes: this.bytes,
      requests: this.requests,
    };
    this.latency.reset();
    this.ttfb.reset();
    this.records = [];
    this.errorsByCode = {};
    this.bytes = 0;
    this.requests = 0;
    return report;
  }

  get hasNews(): boolean {
    return this.requests > 0;
  }
}
