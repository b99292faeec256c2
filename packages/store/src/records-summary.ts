import {
  RESULTS_SCHEMA_VERSION,
  type Operation,
  type PhaseHistograms,
  type PhaseSummary,
  type PointSummary,
  type RunMeta,
  type RunSummary,
  type TailShare,
} from "@taillab/api";
import {
  encodedHistogramsOf,
  expandSweep,
  intervalLogLines,
  PhaseAccount,
  phaseShapeOf,
  repetitionFigures,
  repetitionOfPhase,
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
 * each point is counted with the spec's rules (phaseShapeOf), and of a repeated point each
 * repetition apart too (repetitionOfPhase), so a rebuilt summary equals the one the engine wrote,
 * figure for figure. What the records cannot say:
 * - finishedAt is createdAt plus the last record's end (records count from the run's start,
 *   taken a moment after createdAt);
 * - a phase stopped before its first answer has no records, so it is not listed;
 * - a log written before connects and uploads were recorded has none: the rebuilt phases have no
 *   connect or upload figures (not recorded, rather than 0).
 */

/** What RecordsSummarizer rebuilds. */
export interface RebuiltResults {
  summary: RunSummary;
  /** In point order, then operation order, as the run writer stores them. */
  histograms: PhaseHistograms[];
  /** Every point and operation's percentiles over time. */
  intervalLines: IntervalLogLine[];
}

/** A point's or a repetition's accounts, by operation. */
type Accounts = Map<Operation, PhaseAccount>;

export class RecordsSummarizer {
  private readonly meta: RunMeta;
  /** Accounts by point (its repetitions merged). */
  private readonly points = new Map<number, Accounts>();
  /** A repeated point's accounts by point, then repetition. */
  private readonly repetitions = new Map<number, Map<number, Accounts>>();
  private readonly requests = new LogicalRequestReader((pointIndex, request) =>
    this.settle(pointIndex, request),
  );
  private lastEndUs = 0;
  private slicesRecorded = true;

  constructor(meta: RunMeta) {
    this.meta = meta;
  }

  add(batch: RecordColumns): void {
    this.slicesRecorded &&= batch.slicesRecorded;
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
      const accounts = this.listedAccounts(this.points.get(pointIndex));
      const repetitions = [...(this.repetitions.get(pointIndex) ?? new Map<number, Accounts>())]
        .sort(([a], [b]) => a - b)
        .map(([, each]) => this.listedAccounts(each).map((account) => this.phaseOf(account)));
      points.push({
        params: pointParams,
        finished: status === "complete" || pointIndex < lastPoint,
        phases: accounts.map((account) => this.phaseOf(account)),
        ...(repetitions.length > 1 ? repetitionFigures(repetitions) : {}),
      });
      for (const account of accounts) {
        const { op } = account.shape;
        const encoded = encodedHistogramsOf(account.snapshot());
        histograms.push({
          pointIndex,
          op,
          ...encoded,
          ...(this.slicesRecorded ? {} : { connect: null, upload: null }),
        });
        intervalLines.push(...intervalLogLines(pointIndex, op, account.encodedIntervals()));
      }
    }
    const everyAccounts = [
      ...this.points.values(),
      ...[...this.repetitions.values()].flatMap((each) => [...each.values()]),
    ];
    for (const accounts of everyAccounts) {
      for (const account of accounts.values()) account.destroy();
    }
    this.points.clear();
    this.repetitions.clear();
    return { summary: this.runSummary(points, status), histograms, intervalLines };
  }

  private phaseOf(account: PhaseAccount): PhaseSummary {
    const phase = account.summary();
    return this.slicesRecorded ? phase : withoutSlices(phase);
  }

  /**
   * A point's (or a repetition's) operations as the engine lists them: a mix's every operation
   * once the mix has run, s3bench's phases those that ran, in summary order.
   */
  private listedAccounts(accounts: Accounts = new Map()): PhaseAccount[] {
    const ran = [...accounts.values()].some((account) => account.requests > 0);
    return summaryOperations(this.meta.spec).flatMap((op) => {
      const account = accounts.get(op);
      if (account && account.requests > 0) return [account];
      return this.meta.spec.workload && ran ? [this.accountIn(accounts, op)] : [];
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

  /** Folds a logical request into its point's account, and its repetition's when repeated. */
  private settle(pointIndex: number, request: LogicalRequest): void {
    for (const attempt of request.attempts) {
      this.lastEndUs = Math.max(this.lastEndUs, attempt.endUs);
    }
    const { spec } = this.meta;
    this.accountIn(
      entryOf(this.points, pointIndex, () => new Map()),
      request.op,
    ).add(request);
    if (spec.repeat > 1) {
      const repetition = repetitionOfPhase(spec, pointIndex, request.phaseIndex);
      const repetitions = entryOf(this.repetitions, pointIndex, () => new Map());
      this.accountIn(
        entryOf(repetitions, repetition, () => new Map()),
        request.op,
      ).add(request);
    }
  }

  private accountIn(accounts: Accounts, op: Operation): PhaseAccount {
    return entryOf(accounts, op, () => new PhaseAccount(phaseShapeOf(this.meta.spec, op)));
  }
}

/** A phase without connect and upload figures, as a run that did not record them has. */
function withoutSlices({ connectMs: _c, uploadMs: _u, ...phase }: PhaseSummary): PhaseSummary {
  const { tail } = phase;
  return { ...phase, tail: tail && { p99: shareWithout(tail.p99), p999: shareWithout(tail.p999) } };
}

function shareWithout({ connectMs: _c, uploadMs: _u, ...share }: TailShare): TailShare {
  return share;
}

function entryOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
