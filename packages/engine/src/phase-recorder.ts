import type { Operation, RequestRecord } from "@taillab/api";
import {
  createLatencyHistogram,
  encodeHistogram,
  recordLatencyUs,
  type LatencyHistogram,
} from "@taillab/core";
import type { LogicalResult } from "./logical-request.ts";
import type { HedgeCounters, WorkerReport } from "./worker-protocol.ts";

export function emptyHedgeCounters(): HedgeCounters {
  return { attempts: 0, aborted: 0, wastedBytes: 0, wonByBackup: 0, armed: 0, delaySumMs: 0 };
}

/**
 * Folds one worker's logical requests into HDR histograms and a batch of per-attempt records, and
 * hands them over as a delta at every report, so the coordinator merges histograms instead of
 * averaging figures.
 */
export class PhaseRecorder {
  private readonly op: Operation;
  private readonly openLoop: boolean;
  private latency: LatencyHistogram = createLatencyHistogram();
  private ttfb: LatencyHistogram = createLatencyHistogram();
  private service: LatencyHistogram = createLatencyHistogram();
  private records: RequestRecord[] = [];
  private errorsByCode: Record<string, number> = {};
  private hedge: HedgeCounters = emptyHedgeCounters();
  private bytes = 0;
  private requests = 0;
  private missedStarts = 0;
  firstStartUs: number | null = null;
  lastEndUs: number | null = null;

  private readonly collectRecords: boolean;

  constructor(op: Operation, openLoop: boolean, collectRecords: boolean) {
    this.op = op;
    this.openLoop = openLoop;
    this.collectRecords = collectRecords;
  }

  /**
   * One logical request. Its latency runs from `scheduledStartUs` (open loop) or else the first
   * attempt's start (closed loop) to the end of the answer it used.
   */
  record(
    key: string,
    scheduledStartUs: number | null,
    result: LogicalResult,
    putBytes: number,
  ): void {
    const [first] = result.attempts;
    if (!first) return;
    const intendedStartUs = scheduledStartUs ?? first.outcome.startUs;
    this.requests += 1;
    this.firstStartUs = Math.min(this.firstStartUs ?? intendedStartUs, intendedStartUs);
    const winner = result.winner === null ? null : result.attempts[result.winner];
    const last = winner ?? result.attempts.at(-1) ?? first;
    this.lastEndUs = Math.max(this.lastEndUs ?? last.outcome.endUs, last.outcome.endUs);
    result.attempts.forEach(({ attempt, replica, outcome }, index) => {
      if (!this.collectRecords) return;
      this.records.push({
        op: this.op,
        key,
        bytes: outcome.bytes,
        intendedStartUs,
        startUs: outcome.startUs,
        firstByteUs: outcome.firstByteUs,
        endUs: outcome.endUs,
        status: outcome.status,
        error: outcome.error,
        attempt,
        replica,
        winner: index === result.winner,
      });
    });
    this.countHedging(result, putBytes);
    if (!winner) {
      const code = last.outcome.error ?? "Unknown";
      this.errorsByCode[code] = (this.errorsByCode[code] ?? 0) + 1;
      return;
    }
    this.bytes += winner.outcome.bytes;
    recordLatencyUs(this.latency, winner.outcome.endUs - intendedStartUs);
    recordLatencyUs(this.ttfb, winner.outcome.firstByteUs - intendedStartUs);
    if (this.openLoop) recordLatencyUs(this.service, winner.outcome.endUs - first.outcome.startUs);
  }

  /** An open-loop request that left later than its schedule allowed. */
  recordMissedStart(): void {
    this.missedStarts += 1;
  }

  private countHedging(result: LogicalResult, putBytes: number): void {
    this.hedge.attempts += result.attempts.length;
    if (result.hedgeDelayMs !== null) {
      this.hedge.armed += 1;
      this.hedge.delaySumMs += result.hedgeDelayMs;
    }
    if (result.winner !== null && result.winner > 0) this.hedge.wonByBackup += 1;
    result.attempts.forEach(({ outcome, cancelled }, index) => {
      if (cancelled) this.hedge.aborted += 1;
      if (index === result.winner || result.winner === null) return;
      // A losing upload's body is on the wire before any answer can come: all of it is counted.
      const upload = this.op === "PUT" || this.op === "MULTIPART";
      this.hedge.wastedBytes += upload ? putBytes : outcome.bytes;
    });
  }

  /** The delta since the last call; the recorder starts afresh. */
  takeReport(): WorkerReport {
    const report: WorkerReport = {
      type: "report",
      op: this.op,
      records: this.records,
      latencyHistogram: encodeHistogram(this.latency),
      ttfbHistogram: encodeHistogram(this.ttfb),
      serviceHistogram: this.openLoop ? encodeHistogram(this.service) : null,
      errorsByCode: this.errorsByCode,
      hedge: this.hedge,
      bytes: this.bytes,
      requests: this.requests,
      missedStarts: this.missedStarts,
    };
    this.latency.reset();
    this.ttfb.reset();
    this.service.reset();
    this.records = [];
    this.errorsByCode = {};
    this.hedge = emptyHedgeCounters();
    this.bytes = 0;
    this.requests = 0;
    this.missedStarts = 0;
    return report;
  }

  span(): { op: Operation; firstStartUs: number | null; lastEndUs: number | null } {
    return { op: this.op, firstStartUs: this.firstStartUs, lastEndUs: this.lastEndUs };
  }

  get hasNews(): boolean {
    return this.requests > 0 || this.missedStarts > 0;
  }
}
