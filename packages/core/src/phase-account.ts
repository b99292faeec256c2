import {
  TALLY_NAMES,
  type EncodedTally,
  type HedgeCounts,
  type HedgeSummary,
  type IntervalCounts,
  type IntervalStats,
  type LivePercentiles,
  type Loop,
  type Operation,
  type PhaseAccountDelta,
  type PhaseSummary,
  type RecentIntervals,
  type SteadyThroughput,
  type TallyName,
} from "@taillab/api";
import {
  addTally,
  createTally,
  destroyTally,
  encodeTally,
  intervalLatencyMs,
  livePercentilesOf,
  mergeTally,
  recordDuration,
  resetTally,
  tallyStatsMs,
  type LatencyTally,
} from "./latency-tally.ts";
import {
  latencyParts,
  wasCancelled,
  wentOnWire,
  wasCutOff,
  type AttemptTimeline,
  type LatencyParts,
  type LogicalRequest,
} from "./logical-request.ts";
import { emptyCodeCounts, ErrorCodeCounts } from "./error-codes.ts";
import { coordinatedOmissionNote } from "./coordinated-omission.ts";
import { IntervalCounter } from "./interval-counts.ts";
import { SteadyBuckets } from "./steady-buckets.ts";
import { addToTail, mergeTail, tailBreakdown, type TailBuckets } from "./tail-breakdown.ts";

/**
 * THE accounting of TailLab: how logical requests become a phase summary. Every figure of a
 * phase (counts, errors by code, bytes, durations and throughput, the latency figures, missed
 * starts, hedge cost, the tail breakdown, percentiles over time) is defined here once, and every
 * place that makes figures uses it:
 * - each engine worker folds its requests into an account and hands deltas to the coordinator;
 * - the coordinator merges the deltas into the phase's account (live progress, the summary);
 * - repetitions of a point merge their accounts (separate segments, durations added);
 * - the results store folds a run's records into accounts to rebuild a summary.
 * Folding the same requests gives the same figures whichever way they were grouped: histograms
 * are merged (never percentiles averaged), sums are of whole microseconds and bytes (exact), and
 * min / max are kept exactly beside the histograms.
 */

export { TALLY_NAMES, type HedgeCounts, type PhaseAccountDelta, type TallyName };

/** What a delta without the parts carries of the five figures (see takeDelta). */
const LATENCY_ONLY: readonly TallyName[] = ["latency"];

/** Interval of the percentiles over time, on the run clock. */
export const INTERVAL_US = 1_000_000;
/** Steady throughput counts answers in buckets this wide (see SteadyThroughputSchema). */
export const STEADY_BUCKET_MS = 10;
/**
 * An open-loop request whose first attempt was ready more than this after its intended start is
 * a missed start: the schedule slipped (the pacer or a worker was late, or every client was busy).
 */
export const MISSED_START_TOLERANCE_MS = 2;
const STEADY_BUCKET_US = STEADY_BUCKET_MS * 1000;
const MISSED_START_TOLERANCE_US = MISSED_START_TOLERANCE_MS * 1000;

export interface PhaseAccountShape {
  op: Operation;
  loop: Loop;
  /** The hedge budget when backups are on for this operation, else null (no hedge summary). */
  hedgeBudgetPct: number | null;
}

/**
 * One run of a phase (a phase index): its span and each client's first start and last answer,
 * from which the window where all clients were busy follows.
 */
interface Segment {
  phaseIndex: number;
  firstIntendedUs: number;
  lastEndUs: number;
  /** client → [first intended start, last end]. */
  lanes: Map<number, [number, number]>;
}

/**
 * One second's tallies, each made with its first duration: most seconds have no failure and no
 * backup, and an empty histogram still takes 8 KB.
 */
/**
 * Seconds the live screen's "now" percentiles cover: a few, so a knob shows within them and the
 * live lab's 400 answers a second still give p99.9 from some 2 000.
 */
export const RECENT_WINDOW_SECONDS = 5;

interface IntervalTallies {
  latency: LatencyTally | null;
  /** Intended start → the failure, of requests that failed. */
  failures: LatencyTally | null;
  /** Each backup's wait after its request's first attempt (its count is the cost over time). */
  backups: LatencyTally | null;
  /** Bytes of its answers and its failures by code. */
  counts: IntervalCounter;
}

type IntervalKind = "latency" | "failures" | "backups";

function intervalTally(interval: IntervalTallies, kind: IntervalKind): LatencyTally {
  return (interval[kind] ??= createTally());
}

function destroyIntervalTallies(interval: IntervalTallies): void {
  for (const tally of [interval.latency, interval.failures, interval.backups]) {
    if (tally) destroyTally(tally);
  }
}

function optionalCounts(counter: IntervalCounter): { counts?: IntervalCounts } {
  const counts = counter.toCounts();
  return counts ? { counts } : {};
}

function encodedOrNull(tally: LatencyTally | null): EncodedTally | null {
  return tally && tally.count > 0 ? encodeTally(tally) : null;
}

function emptyHedgeCounts(): HedgeCounts {
  return {
    attempts: 0,
    backups: 0,
    backupDelayUs: 0,
    cancelled: 0,
    wastedBytes: 0,
    wonByBackup: 0,
    sameReplica: 0,
    notSent: 0,
    reconnects: 0,
    reconnectUs: 0,
  };
}

export class PhaseAccount {
  readonly shape: PhaseAccountShape;
  private requestCount = 0;
  private cutOffCount = 0;
  private errorCount = 0;
  private errorsByCode = new ErrorCodeCounts();
  private bytes = 0;
  private missedStarts = 0;
  private negativeIntervals = 0;
  private readonly tallies: Record<TallyName, LatencyTally>;
  private hedge = emptyHedgeCounts();
  private readonly segments = new Map<number, Segment>();
  private readonly steady = new SteadyBuckets();
  private readonly intervals = new Map<number, IntervalTallies>();
  /** Seconds before this one were taken out (takeIntervalsBefore); a late answer starts afresh. */
  private intervalsTakenBefore = Number.NEGATIVE_INFINITY;
  private readonly tail: TailBuckets = new Map();
  /** What changed since the last delta or interval report. */
  private readonly dirtyLanes = new Map<number, Set<number>>();
  private readonly dirtyIntervals = new Set<number>();

  constructor(shape: PhaseAccountShape) {
    this.shape = shape;
    this.tallies = Object.fromEntries(TALLY_NAMES.map((name) => [name, createTally()])) as Record<
      TallyName,
      LatencyTally
    >;
  }

  /** Answered or failed logical requests counted so far. */
  get requests(): number {
    return this.requestCount;
  }

  get errors(): number {
    return this.errorCount;
  }

  /** Successful requests' latency so far (live percentiles). */
  get latency(): LatencyTally {
    return this.tallies.latency;
  }

  /**
   * Folds one logical request in; a request that is not measured changes nothing. Returns the
   * parts of an answer's latency (null for anything else), for a caller that needs them too.
   */
  add(request: LogicalRequest): LatencyParts | null {
    if (!request.measured) return null;
    const first = request.attempts[0];
    if (!first) return null;
    if (wasCutOff(request)) {
      this.cutOffCount += 1;
      return null;
    }
    const winner = request.winner === null ? undefined : request.attempts[request.winner];
    const last = winner ?? request.attempts.at(-1) ?? first;
    this.requestCount += 1;
    // A closed loop has no schedule to miss: its client queue time says how late it sent.
    const late = first.readyUs - request.intendedStartUs > MISSED_START_TOLERANCE_US;
    if (late && this.shape.loop === "open") {
      this.missedStarts += 1;
    }
    this.extendSegment(request.phaseIndex, request.client, request.intendedStartUs, last.endUs);
    // The attempts that went on the wire are the lead (the first of them, or the first attempt
    // when none did) and its backups; picked out in place, as this runs for every request.
    const lead = request.attempts.find(wentOnWire) ?? first;
    const interval = this.intervalAt(last.endUs);
    let backupCount = 0;
    for (const attempt of request.attempts) {
      if (attempt === lead || !wentOnWire(attempt)) continue;
      backupCount += 1;
      recordDuration(intervalTally(interval, "backups"), attempt.readyUs - lead.readyUs);
    }
    this.countHedging(request, lead, backupCount);
    const steadyBucket = Math.floor(last.endUs / STEADY_BUCKET_US);
    if (!winner) {
      this.steady.add(steadyBucket, 1, 0);
      const code = last.error ?? "Unknown";
      this.errorsByCode.add(code);
      interval.counts.addFailure(code);
      this.errorCount += 1;
      recordDuration(intervalTally(interval, "failures"), last.endUs - request.intendedStartUs);
      return null;
    }
    this.bytes += winner.bytes;
    interval.counts.addAnswer(winner.bytes);
    this.steady.add(steadyBucket, 1, winner.bytes);
    const parts = latencyParts(request);
    if (!parts) return null;
    this.recordPart(this.tallies.latency, parts.latencyUs);
    this.recordPart(this.tallies.clientQueue, parts.clientQueueUs);
    this.recordPart(this.tallies.connect, parts.connectUs);
    this.recordPart(this.tallies.service, winner.endUs - winner.sentUs);
    this.recordPart(this.tallies.upload, parts.uploadUs);
    this.recordPart(this.tallies.ttfb, parts.serverUs);
    this.recordPart(this.tallies.transfer, parts.transferUs);
    recordDuration(intervalTally(interval, "latency"), parts.latencyUs);
    addToTail(this.tail, parts);
    return parts;
  }

  /** Adds a delta or snapshot of another account of the same operation. */
  merge(delta: PhaseAccountDelta): void {
    this.requestCount += delta.requests;
    this.cutOffCount += delta.cutOff ?? 0;
    this.bytes += delta.bytes;
    this.missedStarts += delta.missedStarts;
    this.negativeIntervals += delta.negativeIntervals;
    this.errorsByCode.addAll(delta.errorsByCode);
    for (const count of Object.values(delta.errorsByCode)) this.errorCount += count;
    for (const name of TALLY_NAMES) {
      const tally = delta.tallies[name];
      if (tally) mergeTally(this.tallies[name], tally);
    }
    for (const counter of Object.keys(this.hedge) as (keyof HedgeCounts)[]) {
      this.hedge[counter] += delta.hedge[counter];
    }
    for (const segment of delta.segments) {
      for (let at = 0; at < segment.lanes.length; at += 3) {
        this.extendSegment(
          segment.phaseIndex,
          segment.lanes[at] as number,
          segment.lanes[at + 1] as number,
          segment.lanes[at + 2] as number,
        );
      }
      const own = this.segmentOf(segment.phaseIndex);
      own.firstIntendedUs = Math.min(own.firstIntendedUs, segment.firstIntendedUs);
      own.lastEndUs = Math.max(own.lastEndUs, segment.lastEndUs);
    }
    for (let at = 0; at < delta.steady.length; at += 3) {
      this.steady.add(
        delta.steady[at] as number,
        delta.steady[at + 1] as number,
        delta.steady[at + 2] as number,
      );
    }
    for (const { index, latency, failures, backups, counts } of delta.intervals) {
      const interval = this.intervalAt(index * INTERVAL_US);
      interval.counts.merge(counts);
      if (latency) mergeTally(intervalTally(interval, "latency"), latency);
      if (failures) mergeTally(intervalTally(interval, "failures"), failures);
      // Deltas of an older engine (or snapshots from before backups were kept) have none.
      if (backups) mergeTally(intervalTally(interval, "backups"), backups);
    }
    mergeTail(this.tail, delta.tail);
  }

  /**
   * What changed since the last call, as plain data; the account then starts afresh (a worker
   * sends its deltas to the coordinator this way). Lanes and segments keep their spans, so a
   * later delta only widens them. `withParts` false leaves the other four figures (client queue,
   * service, TTFB, transfer) and the per-second tallies for a later delta: only the summary reads
   * the four, and the seconds are drawn once a second, while a live view reads the latency ten
   * times a second; each histogram sent costs an encode and a decode and merge (~0.1 ms of CPU
   * each): 3.5 ms a second for the four at ten deltas a second, and as much again for the current
   * second's tallies, made afresh (and grown to their range) after each delta.
   */
  takeDelta({ withParts = true } = {}): PhaseAccountDelta {
    const taken = withParts ? TALLY_NAMES : LATENCY_ONLY;
    const delta = this.toDelta(true, taken, withParts);
    this.requestCount = 0;
    this.cutOffCount = 0;
    this.errorCount = 0;
    this.errorsByCode = new ErrorCodeCounts();
    this.bytes = 0;
    this.missedStarts = 0;
    this.negativeIntervals = 0;
    for (const name of taken) resetTally(this.tallies[name]);
    this.hedge = emptyHedgeCounts();
    this.steady.clear();
    if (withParts) {
      for (const interval of this.intervals.values()) destroyIntervalTallies(interval);
      this.intervals.clear();
      this.dirtyIntervals.clear();
    }
    this.tail.clear();
    this.dirtyLanes.clear();
    return delta;
  }

  /** The whole account as plain data (to merge repetitions, or to send to another process). */
  snapshot(): PhaseAccountDelta {
    return this.toDelta(false, TALLY_NAMES, true);
  }

  /** Whether anything was counted since the last delta. */
  get hasNews(): boolean {
    return this.requestCount > 0 || this.cutOffCount > 0 || this.dirtyLanes.size > 0;
  }

  summary(): PhaseSummary {
    const { op, loop, hedgeBudgetPct } = this.shape;
    const segments = [...this.segments.values()];
    const durationUs = segments.reduce(
      (sum, each) => sum + (each.lastEndUs - each.firstIntendedUs),
      0,
    );
    const seconds = durationUs / 1e6;
    const latency = this.tallies.latency;
    const summary: PhaseSummary = {
      op,
      loop,
      requests: this.requestCount,
      ...(this.cutOffCount > 0 ? { cutOff: this.cutOffCount } : {}),
      errors: this.errorCount,
      errorsByCode: this.errorsByCode.toObject(),
      bytes: this.bytes,
      durationMs: round3(durationUs / 1000),
      throughputMBps: seconds > 0 ? round3(this.bytes / BYTES_PER_MIB / seconds) : 0,
      opsPerSec: seconds > 0 ? round3(this.requestCount / seconds) : 0,
      steady: this.steadyThroughput(segments),
      latencyMs: tallyStatsMs(latency),
      clientQueueMs: tallyStatsMs(this.tallies.clientQueue),
      connectMs: tallyStatsMs(this.tallies.connect),
      serviceMs: tallyStatsMs(this.tallies.service),
      uploadMs: tallyStatsMs(this.tallies.upload),
      ttfbMs: tallyStatsMs(this.tallies.ttfb),
      transferMs: tallyStatsMs(this.tallies.transfer),
      missedStarts: this.missedStarts,
      ...(this.negativeIntervals > 0 ? { negativeIntervals: this.negativeIntervals } : {}),
      tail: latency.count > 0 ? tailBreakdown(this.tail) : null,
      ...(hedgeBudgetPct === null ? {} : { hedge: this.hedgeSummary(hedgeBudgetPct) }),
      ...(loop === "closed" ? { completionGapMs: this.longestCompletionGapMs(segments) } : {}),
    };
    const omission = coordinatedOmissionNote(summary);
    return omission ? { ...summary, coordinatedOmission: omission } : summary;
  }

  /**
   * The longest stretch, in whole steady buckets, with no request completing while every client
   * of a segment was busy: what a closed loop's clients waited through without measuring it.
   */
  private longestCompletionGapMs(segments: readonly Segment[]): number {
    let longest = 0;
    for (const segment of segments) {
      const { fromBucket, toBucket } = busyWindow(segment);
      if (toBucket > fromBucket) {
        longest = Math.max(longest, this.steady.longestSilence(fromBucket, toBucket));
      }
    }
    return longest * STEADY_BUCKET_MS;
  }

  /** Every interval, in time order. */
  intervalStats(): IntervalStats[] {
    return this.intervalIndexes(() => true).map((index) => this.statsOfInterval(index));
  }

  /**
   * The intervals that changed since the last call, in time order: for a live view, which keeps
   * them by start and replaces the one still filling.
   */
  takeChangedIntervals(): IntervalStats[] {
    const changed = [...this.dirtyIntervals].sort((a, b) => a - b);
    this.dirtyIntervals.clear();
    return changed.map((index) => this.statsOfInterval(index));
  }

  /** Each interval's tallies from `fromIndex` on, encoded, in time order (the interval log). */
  encodedIntervals(fromIndex = Number.NEGATIVE_INFINITY): PhaseAccountDelta["intervals"] {
    return this.intervalIndexes((index) => index >= fromIndex).map((index) =>
      this.encodedInterval(index),
    );
  }

  /**
   * Takes the intervals before `index` out of the account, encoded, in time order: a long phase
   * hands its finished seconds to the interval log as it goes instead of holding them all. An
   * answer that lands in such a second later (the parts of a long multipart upload) opens it
   * afresh, to be taken again; the log's reader adds up a second's lines.
   */
  takeIntervalsBefore(index: number): PhaseAccountDelta["intervals"] {
    const taken = this.intervalIndexes((each) => each < index).map((each) => {
      const encoded = this.encodedInterval(each);
      destroyIntervalTallies(this.intervals.get(each) as IntervalTallies);
      this.intervals.delete(each);
      this.dirtyIntervals.delete(each);
      return encoded;
    });
    this.intervalsTakenBefore = Math.max(this.intervalsTakenBefore, index);
    return taken;
  }

  /**
   * The newest `seconds` intervals (up to the one filling now), encoded; null before any. Seconds
   * already taken out (takeIntervalsBefore) are left out: `fromIndex` is never before them.
   */
  recentIntervals(seconds: number): RecentIntervals | null {
    if (this.intervals.size === 0) return null;
    let newest = Number.NEGATIVE_INFINITY;
    for (const index of this.intervals.keys()) newest = Math.max(newest, index);
    const fromIndex = Math.max(newest - seconds + 1, this.intervalsTakenBefore);
    if (fromIndex > newest) return null;
    return { fromIndex, intervals: this.encodedIntervals(fromIndex) };
  }

  /**
   * Percentiles of the answers in the newest `seconds` intervals, the one filling included: what
   * the server does now, where the phase's own figures still carry every second since its start.
   * Null before an answer in them.
   */
  recentPercentiles(seconds: number): LivePercentiles | null {
    let newest = Number.NEGATIVE_INFINITY;
    for (const index of this.intervals.keys()) newest = Math.max(newest, index);
    const merged = createTally();
    for (const [index, interval] of this.intervals) {
      if (index > newest - seconds && interval.latency) addTally(merged, interval.latency);
    }
    const percentiles = livePercentilesOf(merged);
    destroyTally(merged);
    return percentiles;
  }

  destroy(): void {
    for (const tally of Object.values(this.tallies)) destroyTally(tally);
    for (const interval of this.intervals.values()) destroyIntervalTallies(interval);
    this.intervals.clear();
  }

  /**
   * A part of a request's timeline: a negative one means two clocks disagree. The histogram
   * cannot hold it (it counts as 1 µs, as a tick of 0 does), so it is counted and said.
   */
  private recordPart(tally: LatencyTally, durationUs: number): void {
    if (durationUs < 0) this.negativeIntervals += 1;
    recordDuration(tally, durationUs);
  }

  private intervalIndexes(keep: (index: number) => boolean): number[] {
    return [...this.intervals.keys()].filter(keep).sort((a, b) => a - b);
  }

  private encodedInterval(index: number): PhaseAccountDelta["intervals"][number] {
    const interval = this.intervals.get(index) as IntervalTallies;
    return {
      index,
      latency: encodedOrNull(interval.latency),
      failures: encodedOrNull(interval.failures),
      backups: encodedOrNull(interval.backups),
      ...optionalCounts(interval.counts),
    };
  }

  private statsOfInterval(index: number): IntervalStats {
    const interval = this.intervals.get(index) as IntervalTallies;
    return {
      startMs: (index * INTERVAL_US) / 1000,
      lengthMs: INTERVAL_US / 1000,
      requests: interval.latency?.count ?? 0,
      errors: interval.failures?.count ?? 0,
      ...intervalLatencyMs(interval.latency),
      backups: interval.backups?.count ?? 0,
      ...interval.counts.toCounts(),
    };
  }

  private toDelta(
    changedOnly: boolean,
    names: readonly TallyName[],
    withIntervals: boolean,
  ): PhaseAccountDelta {
    const tallies: Partial<Record<TallyName, EncodedTally>> = {};
    for (const name of names) {
      if (this.tallies[name].count > 0) tallies[name] = encodeTally(this.tallies[name]);
    }
    const segments = [...this.segments.values()].map((segment) => {
      const clients = changedOnly
        ? (this.dirtyLanes.get(segment.phaseIndex) ?? new Set<number>())
        : segment.lanes.keys();
      const lanes: number[] = [];
      for (const client of clients) {
        const [first, last] = segment.lanes.get(client) as [number, number];
        lanes.push(client, first, last);
      }
      return {
        phaseIndex: segment.phaseIndex,
        firstIntendedUs: segment.firstIntendedUs,
        lastEndUs: segment.lastEndUs,
        lanes,
      };
    });
    return {
      requests: this.requestCount,
      ...(this.cutOffCount > 0 ? { cutOff: this.cutOffCount } : {}),
      errorsByCode: this.errorsByCode.toObject(),
      bytes: this.bytes,
      missedStarts: this.missedStarts,
      negativeIntervals: this.negativeIntervals,
      tallies,
      hedge: { ...this.hedge },
      segments: changedOnly
        ? segments.filter((segment) => this.dirtyLanes.has(segment.phaseIndex))
        : segments,
      steady: this.steady.flattened(),
      intervals: withIntervals ? this.encodedIntervals() : [],
      tail: [...this.tail].map(([bucket, sums]) => [bucket, [...sums]]),
    };
  }

  private segmentOf(phaseIndex: number): Segment {
    let segment = this.segments.get(phaseIndex);
    if (!segment) {
      segment = {
        phaseIndex,
        firstIntendedUs: Number.POSITIVE_INFINITY,
        lastEndUs: Number.NEGATIVE_INFINITY,
        lanes: new Map(),
      };
      this.segments.set(phaseIndex, segment);
    }
    return segment;
  }

  private extendSegment(phaseIndex: number, client: number, startUs: number, endUs: number): void {
    const segment = this.segmentOf(phaseIndex);
    segment.firstIntendedUs = Math.min(segment.firstIntendedUs, startUs);
    segment.lastEndUs = Math.max(segment.lastEndUs, endUs);
    const lane = segment.lanes.get(client);
    if (lane) {
      lane[0] = Math.min(lane[0], startUs);
      lane[1] = Math.max(lane[1], endUs);
    } else {
      segment.lanes.set(client, [startUs, endUs]);
    }
    let dirty = this.dirtyLanes.get(phaseIndex);
    if (!dirty) {
      dirty = new Set();
      this.dirtyLanes.set(phaseIndex, dirty);
    }
    dirty.add(client);
  }

  private intervalAt(endUs: number): IntervalTallies {
    const index = Math.floor(endUs / INTERVAL_US);
    let interval = this.intervals.get(index);
    if (!interval) {
      interval = { latency: null, failures: null, backups: null, counts: new IntervalCounter() };
      this.intervals.set(index, interval);
    }
    // A live view keeps the seconds it was shown; a taken one reopened holds only the late part.
    if (index >= this.intervalsTakenBefore) this.dirtyIntervals.add(index);
    return interval;
  }

  /**
   * `lead`: the first attempt that went on the wire (or the first attempt when none did);
   * `backupCount` the others that did, its backups. Only those are requests a server received: a
   * backup refused or cancelled before it was written is counted apart, as not sent.
   */
  private countHedging(request: LogicalRequest, lead: AttemptTimeline, backupCount: number): void {
    const { attempts, winner } = request;
    const counts = this.hedge;
    if (winner !== null && winner > 0) counts.wonByBackup += 1;
    counts.attempts += wentOnWire(lead) ? 1 + backupCount : 0;
    counts.notSent += attempts.length - 1 - backupCount;
    for (let index = 0; index < attempts.length; index++) {
      const attempt = attempts[index] as AttemptTimeline;
      if (attempt !== lead && wentOnWire(attempt)) {
        counts.backups += 1;
        counts.backupDelayUs += attempt.readyUs - lead.readyUs;
        if (attempt.replica === lead.replica) counts.sameReplica += 1;
      }
      if (wasCancelled(attempt) && wentOnWire(attempt)) counts.cancelled += 1;
      if (winner !== null && index !== winner) counts.wastedBytes += attempt.bytes;
      if (attempt.reconnectUs !== undefined) {
        counts.reconnects += 1;
        counts.reconnectUs += attempt.reconnectUs;
      }
    }
  }

  private hedgeSummary(budgetPct: number): HedgeSummary {
    const counts = this.hedge;
    return {
      delayMs: counts.backups > 0 ? round3(counts.backupDelayUs / counts.backups / 1000) : null,
      budgetPct,
      attempts: counts.attempts,
      extraPct: this.requestCount > 0 ? round3((counts.backups * 100) / this.requestCount) : 0,
      cancelled: counts.cancelled,
      wastedBytes: counts.wastedBytes,
      wonByBackup: counts.wonByBackup,
      sameReplica: counts.sameReplica,
      notSent: counts.notSent,
      ...(counts.reconnects > 0
        ? {
            reconnects: counts.reconnects,
            reconnectMeanMs: round3(counts.reconnectUs / counts.reconnects / 1000),
          }
        : {}),
    };
  }

  /**
   * Per segment, the window from the last client's first start to the first client's last answer,
   * trimmed to whole buckets; the answers in it over its length. Null when no segment has one.
   */
  private steadyThroughput(segments: readonly Segment[]): SteadyThroughput | null {
    let requests = 0;
    let bytes = 0;
    let windowUs = 0;
    let fromUs: number | null = null;
    let toUs = 0;
    for (const segment of [...segments].sort((a, b) => a.firstIntendedUs - b.firstIntendedUs)) {
      const { fromBucket, toBucket } = busyWindow(segment);
      if (!(toBucket > fromBucket)) continue;
      const sums = this.steady.sum(fromBucket, toBucket);
      requests += sums.answers;
      bytes += sums.bytes;
      windowUs += (toBucket - fromBucket) * STEADY_BUCKET_US;
      fromUs ??= fromBucket * STEADY_BUCKET_US;
      toUs = toBucket * STEADY_BUCKET_US;
    }
    if (fromUs === null || windowUs === 0) return null;
    const seconds = windowUs / 1e6;
    return {
      fromMs: fromUs / 1000,
      toMs: toUs / 1000,
      durationMs: windowUs / 1000,
      requests,
      bytes,
      throughputMBps: round3(bytes / BYTES_PER_MIB / seconds),
      opsPerSec: round3(requests / seconds),
    };
  }
}

/**
 * A segment's window from the last client's first start to the first client's last answer,
 * trimmed to whole steady buckets: where every client was busy.
 */
function busyWindow(segment: Segment): { fromBucket: number; toBucket: number } {
  let lastFirstStart = Number.NEGATIVE_INFINITY;
  let firstLastEnd = Number.POSITIVE_INFINITY;
  for (const [first, last] of segment.lanes.values()) {
    lastFirstStart = Math.max(lastFirstStart, first);
    firstLastEnd = Math.min(firstLastEnd, last);
  }
  return {
    fromBucket: Math.ceil(lastFirstStart / STEADY_BUCKET_US),
    toBucket: Math.floor(firstLastEnd / STEADY_BUCKET_US),
  };
}

/** The figures' histograms of an account's snapshot, encoded (empty ones too). */
export function encodedHistogramsOf(snapshot: PhaseAccountDelta): Record<TallyName, string> {
  return Object.fromEntries(
    TALLY_NAMES.map((name) => [
      name,
      snapshot.tallies[name]?.histogram ?? encodeTally(EMPTY_TALLY).histogram,
    ]),
  ) as Record<TallyName, string>;
}

const EMPTY_TALLY = createTally();

const BYTES_PER_MIB = 1024 * 1024;

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** An account's data with nothing in it but these intervals: to merge them alone. */
export function intervalsOnlyDelta(intervals: PhaseAccountDelta["intervals"]): PhaseAccountDelta {
  return {
    requests: 0,
    errorsByCode: emptyCodeCounts(),
    bytes: 0,
    missedStarts: 0,
    negativeIntervals: 0,
    tallies: {},
    hedge: emptyHedgeCounts(),
    segments: [],
    steady: [],
    intervals,
    tail: [],
  };
}

/**
 * An account's data moved to another run clock: `offsetUs` is added to every time in it (the
 * spans of segments and lanes; steady buckets and intervals move by whole buckets, rounded, so a
 * shift by whole seconds, as between the shards of a distributed run, is exact). Durations and
 * counts do not change.
 */
export function shiftedAccount(delta: PhaseAccountDelta, offsetUs: number): PhaseAccountDelta {
  const steadyShift = Math.round(offsetUs / STEADY_BUCKET_US);
  const intervalShift = Math.round(offsetUs / INTERVAL_US);
  return {
    ...delta,
    segments: delta.segments.map((segment) => ({
      ...segment,
      firstIntendedUs: segment.firstIntendedUs + offsetUs,
      lastEndUs: segment.lastEndUs + offsetUs,
      // client, first start, last end, … : the times move, the client does not.
      lanes: segment.lanes.map((value, at) => (at % 3 === 0 ? value : value + offsetUs)),
    })),
    steady: delta.steady.map((value, at) => (at % 3 === 0 ? value + steadyShift : value)),
    intervals: delta.intervals.map((interval) => ({
      ...interval,
      index: interval.index + intervalShift,
    })),
  };
}
