import {
  RESULTS_SCHEMA_VERSION,
  type Operation,
  type PhaseHistograms,
  type PointSummary,
  type RunMeta,
  type RunSummary,
} from "@taillab/api";
import {
  encodedHistogramsOf,
  expandSweep,
  intervalLogLines,
  PhaseAccount,
  phaseShapeOf,
  summaryOperations,
  type AttemptTimeline,
  type IntervalLogLine,
  type LogicalRequest,
} from "@taillab/core";
import { OPERATIONS, TEXT_KEY_FLAG, type RecordColumns } from "./record-columns.ts";

/**
 * A RunSummary, phase histograms and interval log lines rebuilt from a run's records, for a run
 * that never wrote its own (killed, power cut, failed) or to check one that did. The records are
 * folded into the same accounting as the engine's (core's PhaseAccount): a logical request is an
 * attempt 1 and the attempts right after it of the same key, phase and client; each operation of
 * each point is counted with the spec's rules (phaseShapeOf), so a rebuilt summary equals the one
 * the engine wrote, figure for figure. What the records cannot say:
 * - finishedAt is createdAt plus the last record's end (records count from the run's start,
 *   taken a moment after createdAt);
 * - a phase stopped before its first answer has no records, so it is not listed.
 */

interface PendingRequest {
  pointIndex: number;
  key: number;
  request: LogicalRequest;
  attempts: AttemptTimeline[];
}

/** What RecordsSummarizer rebuilds. */
export interface RebuiltResults {
  summary: RunSummary;
  /** In point order, then operation order, as the run writer stores them. */
  histograms: PhaseHistograms[];
  /** Every point and operation's percentiles over time. */
  intervalLines: IntervalLogLine[];
}

export class RecordsSummarizer {
  private readonly meta: RunMeta;
  /** Accounts by point, then operation. */
  private readonly points = new Map<number, Map<Operation, PhaseAccount>>();
  private pending: PendingRequest | null = null;
  private lastEndUs = 0;

  constructor(meta: RunMeta) {
    this.meta = meta;
  }

  add(batch: RecordColumns): void {
    for (let row = 0; row < batch.count; row += 1) {
      const pointIndex = batch.pointIndex[row] ?? 0;
      const op = OPERATIONS[batch.op[row] ?? 0] ?? "PUT";
      const keyNumber = batch.keyNumber[row] ?? 0;
      const key = keyNumber >= TEXT_KEY_FLAG ? -1 - (keyNumber - TEXT_KEY_FLAG) : keyNumber;
      const phaseIndex = batch.phaseIndex[row] ?? 0;
      const client = batch.client[row] ?? 0;
      const attempt: AttemptTimeline = {
        replica: batch.replica[row] ?? 0,
        readyUs: batch.readyUs[row] ?? 0,
        sentUs: batch.sentUs[row] ?? 0,
        headersUs: batch.headersUs[row] ?? 0,
        firstByteUs: batch.firstByteUs[row] ?? 0,
        endUs: batch.endUs[row] ?? 0,
        bytes: batch.bytes[row] ?? 0,
        error: batch.errorCodes[batch.errorId[row] ?? 0] ?? null,
      };
      this.lastEndUs = Math.max(this.lastEndUs, attempt.endUs);
      const pending = this.pending;
      const continues =
        pending !== null &&
        (batch.attempt[row] ?? 1) > 1 &&
        pending.pointIndex === pointIndex &&
        pending.request.op === op &&
        pending.key === key &&
        pending.request.phaseIndex === phaseIndex &&
        pending.request.client === client;
      if (continues) {
        if (batch.winner[row] === 1) pending.request.winner = pending.attempts.length;
        pending.attempts.push(attempt);
        continue;
      }
      this.settle();
      const attempts = [attempt];
      this.pending = {
        pointIndex,
        key,
        attempts,
        request: {
          op,
          intendedStartUs: batch.intendedStartUs[row] ?? 0,
          phaseIndex,
          client,
          measured: batch.measured[row] === 1,
          attempts,
          winner: batch.winner[row] === 1 ? 0 : null,
        },
      };
    }
  }

  /**
   * Ends the rebuild (the summarizer holds nothing afterwards). `status`: how the run ended, or
   * null when it never did (its last point is then unfinished).
   */
  finish(status: RunSummary["status"] | null): RebuiltResults {
    this.settle();
    const { meta } = this;
    const params = expandSweep(meta.spec);
    const lastPoint = Math.max(-1, ...this.points.keys());
    if (lastPoint >= params.length) {
      throw new Error(
        `run ${meta.id}: records name point ${lastPoint}, but its spec has ${params.length} points`,
      );
    }
    const points: PointSummary[] = [];
    const histograms: PhaseHistograms[] = [];
    const intervalLines: IntervalLogLine[] = [];
    for (const [pointIndex, pointParams] of params.slice(0, lastPoint + 1).entries()) {
      const accounts = this.listedAccounts(pointIndex);
      points.push({
        params: pointParams,
        finished: status === "complete" || pointIndex < lastPoint,
        phases: accounts.map((account) => account.summary()),
      });
      for (const account of accounts) {
        const { op } = account.shape;
        histograms.push({ pointIndex, op, ...encodedHistogramsOf(account.snapshot()) });
        intervalLines.push(...intervalLogLines(pointIndex, op, account.encodedIntervals()));
      }
    }
    for (const accounts of this.points.values()) {
      for (const account of accounts.values()) account.destroy();
    }
    this.points.clear();
    return { summary: this.runSummary(points, status), histograms, intervalLines };
  }

  /**
   * A point's operations as the engine lists them: a mix's every operation once the mix has run,
   * s3bench's phases those that ran, in summary order.
   */
  private listedAccounts(pointIndex: number): PhaseAccount[] {
    const accounts = this.points.get(pointIndex) ?? new Map<Operation, PhaseAccount>();
    const ran = [...accounts.values()].some((account) => account.requests > 0);
    return summaryOperations(this.meta.spec).flatMap((op) => {
      const account = accounts.get(op);
      if (account && account.requests > 0) return [account];
      return this.meta.spec.workload && ran ? [this.accountFor(pointIndex, op)] : [];
    });
  }

  private runSummary(points: PointSummary[], status: RunSummary["status"] | null): RunSummary {
    const { meta } = this;
    return {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      runId: meta.id,
      startedAt: meta.createdAt,
      finishedAt: new Date(Date.parse(meta.createdAt) + this.lastEndUs / 1000).toISOString(),
      spec: meta.spec,
      endpointUrls: meta.spec.endpoints?.map((endpoint) => endpoint.url) ?? [],
      server: meta.environment.server,
      mode: meta.spec.mode,
      loop: meta.spec.openLoop ? "open" : "closed",
      status: status ?? "stopped",
      pointCount: expandSweep(meta.spec).length,
      points,
    };
  }

  /** Folds the pending logical request into its point's account. */
  private settle(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.accountFor(pending.pointIndex, pending.request.op).add(pending.request);
  }

  private accountFor(pointIndex: number, op: Operation): PhaseAccount {
    let accounts = this.points.get(pointIndex);
    if (!accounts) {
      accounts = new Map();
      this.points.set(pointIndex, accounts);
    }
    let account = accounts.get(op);
    if (!account) {
      account = new PhaseAccount(phaseShapeOf(this.meta.spec, op));
      accounts.set(op, account);
    }
    return account;
  }
}
