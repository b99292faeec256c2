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
  type IntervalLogLine,
  type LogicalRequest,
} from "@taillab/core";
import { LogicalRequestReader } from "./logical-requests.ts";
import type { RecordColumns } from "./record-columns.ts";

/**
 * A RunSummary, phase histograms and interval log lines rebuilt from a run's records, for a run
 * that never wrote its own (killed, power cut, failed) or to check one that did. The records are
 * folded into the same accounting as the engine's (core's PhaseAccount), as the logical requests
 * the engine folded (LogicalRequestReader); each operation of
 * each point is counted with the spec's rules (phaseShapeOf), so a rebuilt summary equals the one
 * the engine wrote, figure for figure. What the records cannot say:
 * - finishedAt is createdAt plus the last record's end (records count from the run's start,
 *   taken a moment after createdAt);
 * - a phase stopped before its first answer has no records, so it is not listed.
 */

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
  private readonly requests = new LogicalRequestReader((pointIndex, request) =>
    this.settle(pointIndex, request),
  );
  private lastEndUs = 0;

  constructor(meta: RunMeta) {
    this.meta = meta;
  }

  add(batch: RecordColumns): void {
    this.requests.add(batch);
  }

  /**
   * Ends the rebuild (the summarizer holds nothing afterwards). `status`: how the run ended, or
   * null when it never did (its last point is then unfinished).
   */
  finish(status: RunSummary["status"] | null): RebuiltResults {
    this.requests.flush();
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

  /** Folds a logical request into its point's account. */
  private settle(pointIndex: number, request: LogicalRequest): void {
    for (const attempt of request.attempts)
      this.lastEndUs = Math.max(this.lastEndUs, attempt.endUs);
    this.accountFor(pointIndex, request.op).add(request);
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
