import {
  MISSED_START_TOLERANCE_MS,
  RESULTS_SCHEMA_VERSION,
  type HedgeSummary,
  type Operation,
  type PhaseHistograms,
  type PhaseSummary,
  type PointSummary,
  type RunMeta,
  type RunSummary,
} from "@taillab/api";
import {
  createLatencyHistogram,
  encodeHistogram,
  expandSweep,
  latencyStatsMs,
  recordLatencyUs,
  summarizePhase,
  type LatencyHistogram,
} from "@taillab/core";
import { OPERATIONS, TEXT_KEY_FLAG, type RecordColumns } from "./record-columns.ts";

/**
 * A RunSummary and the phase histograms rebuilt from a run's records, for a run that never wrote
 * its own (killed, power cut, failed). It follows the engine's PhaseRecorder and PhaseCollector:
 * a logical request is an attempt 1 and the attempts after it with the same key; its latency runs
 * from the intended start to the end of the winning attempt, TTFB to that attempt's first byte,
 * service time (open loop only) from the first attempt's actual start to the same end; a request
 * with no winner counts under the last attempt's error code and in no histogram; a phase lasts
 * from its earliest intended start to its latest answer. The histograms are the ones the summary's
 * percentiles come from, so the two always agree. What the records do not hold is approximated or
 * left out:
 * - missedStarts (open loop): first attempts that started more than MISSED_START_TOLERANCE_MS
 *   after their schedule (the engine checks just before sending, so this can count a few more);
 * - hedge.delayMs is null (the delay chosen is not recorded); aborted counts the losing attempts
 *   of requests that had a winner, which the engine cancels;
 * - finishedAt is createdAt plus the last record's end (records count from the run's start,
 *   taken a moment after createdAt).
 */

interface Attempt {
  intendedStartUs: number;
  startUs: number;
  firstByteUs: number;
  endUs: number;
  bytes: number;
  error: string | null;
  winner: boolean;
}

interface PendingRequest {
  pointIndex: number;
  op: number;
  keyNumber: number;
  attempts: Attempt[];
}

interface PhaseTotals {
  op: Operation;
  requests: number;
  errorsByCode: Record<string, number>;
  bytes: number;
  firstStartUs: number | null;
  lastEndUs: number | null;
  latency: LatencyHistogram;
  ttfb: LatencyHistogram;
  service: LatencyHistogram;
  missedStarts: number;
  attempts: number;
  aborted: number;
  wastedBytes: number;
  wonByBackup: number;
}

/** What RecordsSummarizer rebuilds: the summary and each point × phase's histograms. */
export interface RebuiltResults {
  summary: RunSummary;
  /** In point order, then operation order, as the run writer stores them. */
  histograms: PhaseHistograms[];
}

export class RecordsSummarizer {
  private readonly meta: RunMeta;
  /** Phase totals by point, then by op code. */
  private readonly phases = new Map<number, Map<number, PhaseTotals>>();
  private readonly objectSizes: number[];
  private pending: PendingRequest | null = null;
  private lastEndUs = 0;

  constructor(meta: RunMeta) {
    this.meta = meta;
    this.objectSizes = expandSweep(meta.spec).map((params) => params.objectSizeBytes);
  }

  add(batch: RecordColumns): void {
    for (let row = 0; row < batch.count; row += 1) {
      const pointIndex = batch.pointIndex[row] ?? 0;
      const op = batch.op[row] ?? 0;
      const keyNumber = batch.keyNumber[row] ?? 0;
      const keyId = keyNumber >= TEXT_KEY_FLAG ? -1 - (keyNumber - TEXT_KEY_FLAG) : keyNumber;
      const attempt: Attempt = {
        intendedStartUs: batch.intendedStartUs[row] ?? 0,
        startUs: batch.startUs[row] ?? 0,
        firstByteUs: batch.firstByteUs[row] ?? 0,
        endUs: batch.endUs[row] ?? 0,
        bytes: batch.bytes[row] ?? 0,
        error: batch.errorCodes[batch.errorId[row] ?? 0] ?? null,
        winner: batch.winner[row] === 1,
      };
      this.lastEndUs = Math.max(this.lastEndUs, attempt.endUs);
      const pending = this.pending;
      const continues =
        pending !== null &&
        (batch.attempt[row] ?? 1) > 1 &&
        pending.pointIndex === pointIndex &&
        pending.op === op &&
        pending.keyNumber === keyId;
      if (continues) {
        pending.attempts.push(attempt);
        continue;
      }
      this.settle();
      this.pending = { pointIndex, op, keyNumber: keyId, attempts: [attempt] };
    }
  }

  /** Ends the rebuild: the summarizer holds nothing afterwards. */
  finish(stoppedWhenComplete: boolean | null): RebuiltResults {
    this.settle();
    const { meta } = this;
    const params = expandSweep(meta.spec);
    const lastPoint = Math.max(-1, ...this.phases.keys());
    if (lastPoint >= params.length) {
      throw new Error(
        `run ${meta.id}: records name point ${lastPoint}, but its spec has ${params.length} points`,
      );
    }
    const points: PointSummary[] = [];
    const histograms: PhaseHistograms[] = [];
    for (const [pointIndex, pointParams] of params.slice(0, lastPoint + 1).entries()) {
      const phases = [...(this.phases.get(pointIndex)?.entries() ?? [])].sort(([a], [b]) => a - b);
      points.push({
        params: pointParams,
        phases: phases.map(([, totals]) => this.phaseSummary(totals)),
      });
      histograms.push(...phases.map(([, totals]) => this.phaseHistograms(pointIndex, totals)));
    }
    for (const byOp of this.phases.values()) {
      for (const totals of byOp.values()) {
        totals.latency.destroy();
        totals.ttfb.destroy();
        totals.service.destroy();
      }
    }
    this.phases.clear();
    return { summary: this.runSummary(points, stoppedWhenComplete), histograms };
  }

  private runSummary(points: PointSummary[], stoppedWhenComplete: boolean | null): RunSummary {
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
      stopped: stoppedWhenComplete ?? true,
      points,
    };
  }

  private phaseSummary(totals: PhaseTotals): PhaseSummary {
    const { spec } = this.meta;
    const durationUs =
      totals.firstStartUs === null || totals.lastEndUs === null
        ? 0
        : totals.lastEndUs - totals.firstStartUs;
    const summary = summarizePhase({ ...totals, durationMs: durationUs / 1000 });
    // The engine never hedges cleanup (DELETE).
    const hedged = spec.mode !== "normal" && totals.op !== "DELETE";
    return {
      ...summary,
      ...(this.isOpenLoop(totals.op)
        ? { serviceMs: latencyStatsMs(totals.service), missedStarts: totals.missedStarts }
        : {}),
      ...(hedged ? { hedge: hedgeSummary(totals, spec.hedge.budgetPercent) } : {}),
    };
  }

  /** Encoded like the engine's PhaseCollector.encodedHistograms. */
  private phaseHistograms(pointIndex: number, totals: PhaseTotals): PhaseHistograms {
    return {
      pointIndex,
      op: totals.op,
      latency: encodeHistogram(totals.latency),
      ttfb: encodeHistogram(totals.ttfb),
      service: this.isOpenLoop(totals.op) ? encodeHistogram(totals.service) : null,
    };
  }

  /** The engine runs cleanup (DELETE) as a closed loop, whatever the spec says. */
  private isOpenLoop(op: Operation): boolean {
    return this.meta.spec.openLoop !== undefined && op !== "DELETE";
  }

  /** Folds the pending logical request into its phase. */
  private settle(): void {
    const request = this.pending;
    if (!request) return;
    this.pending = null;
    const totals = this.totalsFor(request.pointIndex, request.op);
    const [first] = request.attempts;
    if (!first) return;
    const intendedStartUs = first.intendedStartUs;
    const winnerIndex = request.attempts.findIndex((attempt) => attempt.winner);
    const winner = request.attempts[winnerIndex];
    const last = winner ?? request.attempts.at(-1) ?? first;
    totals.requests += 1;
    totals.firstStartUs = Math.min(totals.firstStartUs ?? intendedStartUs, intendedStartUs);
    totals.lastEndUs = Math.max(totals.lastEndUs ?? last.endUs, last.endUs);
    totals.attempts += request.attempts.length;
    if (first.startUs - intendedStartUs > MISSED_START_TOLERANCE_MS * 1000) {
      totals.missedStarts += 1;
    }
    if (!winner) {
      const code = last.error ?? "Unknown";
      totals.errorsByCode[code] = (totals.errorsByCode[code] ?? 0) + 1;
      return;
    }
    if (winnerIndex > 0) totals.wonByBackup += 1;
    const putBytes = this.objectSizes[request.pointIndex] ?? 0;
    request.attempts.forEach((attempt, index) => {
      if (index === winnerIndex) return;
      totals.aborted += 1;
      totals.wastedBytes += totals.op === "PUT" ? putBytes : attempt.bytes;
    });
    totals.bytes += winner.bytes;
    recordLatencyUs(totals.latency, winner.endUs - intendedStartUs);
    recordLatencyUs(totals.ttfb, winner.firstByteUs - intendedStartUs);
    recordLatencyUs(totals.service, winner.endUs - first.startUs);
  }

  private totalsFor(pointIndex: number, op: number): PhaseTotals {
    let byOp = this.phases.get(pointIndex);
    if (!byOp) {
      byOp = new Map();
      this.phases.set(pointIndex, byOp);
    }
    let totals = byOp.get(op);
    if (!totals) {
      totals = {
        op: OPERATIONS[op] ?? "PUT",
        requests: 0,
        errorsByCode: {},
        bytes: 0,
        firstStartUs: null,
        lastEndUs: null,
        latency: createLatencyHistogram(),
        ttfb: createLatencyHistogram(),
        service: createLatencyHistogram(),
        missedStarts: 0,
        attempts: 0,
        aborted: 0,
        wastedBytes: 0,
        wonByBackup: 0,
      };
      byOp.set(op, totals);
    }
    return totals;
  }
}

function hedgeSummary(totals: PhaseTotals, budgetPct: number): HedgeSummary {
  const extra = Math.max(0, totals.attempts - totals.requests);
  return {
    delayMs: null,
    budgetPct,
    attempts: totals.attempts,
    extraPct: totals.requests > 0 ? round3((extra * 100) / totals.requests) : 0,
    aborted: totals.aborted,
    wastedBytes: totals.wastedBytes,
    wonByBackup: totals.wonByBackup,
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
