import type {
  LivePercentiles,
  LiveTimeline,
  Operation,
  RequestRecord,
  RunEvent,
  RunProgress,
} from "@taillab/api";
import {
  createLatencyHistogram,
  decimateSeries,
  latencyStatsMs,
  recordLatencyUs,
  type LatencyHistogram,
} from "@taillab/core";

/** Columns per live chart update: enough to see a stall, few enough to draw on every update. */
export const LIVE_TIMELINE_BUCKETS = 200;
const INITIAL_PENDING = 4096;

export type ProgressEvent = Extract<RunEvent, { type: "progress" }>;

/** One operation of the phase running now. */
interface OperationView {
  /** Successful requests' latencies (µs), as the phase summary counts them. */
  histogram: LatencyHistogram;
  /** Logical requests of the phase so far, failed ones included. */
  requests: number;
  /** Index within the phase of the next successful request (= successful requests so far). */
  nextIndex: number;
  /** Latencies (ms) of the requests since the last snapshot, from `pendingFirstIndex` on. */
  pending: Float64Array;
  pendingCount: number;
  pendingFirstIndex: number;
}

/**
 * What a run's live charts need beside its progress, built from the records as they stream:
 * percentiles of the phase so far (an HDR histogram, reset when a phase starts) and the latency
 * of each request since the last snapshot against its index in the phase, decimated. A request
 * is a logical one (its winning attempt), its latency from the intended start, as in the stored
 * run's charts. Per record it does a few arithmetic operations and no allocation, so it keeps up
 * with the engine at full speed.
 */
export class LiveRunView {
  private readonly views = new Map<Operation, OperationView>();
  private pointIndex = 0;

  startPhase(pointIndex: number): void {
    this.pointIndex = pointIndex;
    for (const view of this.views.values()) {
      view.histogram.reset();
      view.requests = 0;
      view.nextIndex = 0;
      view.pendingCount = 0;
      view.pendingFirstIndex = 0;
    }
  }

  addRecords(records: readonly RequestRecord[]): void {
    for (const record of records) {
      // A logical request's attempts come together, its first attempt first.
      if (record.attempt === 1) this.viewOf(record.op).requests += 1;
      if (!record.winner) continue;
      const view = this.viewOf(record.op);
      const latencyUs = record.endUs - record.intendedStartUs;
      if (record.error === null) recordLatencyUs(view.histogram, latencyUs);
      if (view.pendingCount === view.pending.length) {
        const grown = new Float64Array(view.pending.length * 2);
        grown.set(view.pending);
        view.pending = grown;
      }
      view.pending[view.pendingCount] = latencyUs / 1000;
      view.pendingCount += 1;
      view.nextIndex += 1;
    }
  }

  /**
   * A progress event whose counts, percentiles and timeline all stop at the same request: the
   * engine's progress line is some records behind by the time it is sent (it waits for its turn
   * in the throttle), so its done and error counts are taken from the records seen here. The
   * rate and the elapsed time stay the engine's.
   */
  progressEvent(progress: RunProgress): ProgressEvent {
    let done = 0;
    let succeeded = 0;
    for (const view of this.views.values()) {
      done += view.requests;
      succeeded += view.nextIndex;
    }
    return {
      type: "progress",
      progress: { ...progress, done, errors: done - succeeded },
      ...this.snapshot(progress.op),
    };
  }

  /**
   * `op`'s percentiles and new requests (null when it has none); every operation's new requests
   * are then taken as shown, so the next snapshot starts after them.
   */
  snapshot(op: Operation): { percentiles: LivePercentiles | null; timeline: LiveTimeline | null } {
    const view = this.views.get(op);
    const percentiles =
      view && view.histogram.totalCount > 0 ? percentilesOf(view.histogram) : null;
    const timeline =
      view && view.pendingCount > 0
        ? {
            pointIndex: this.pointIndex,
            op,
            buckets: decimateSeries(
              view.pending.subarray(0, view.pendingCount),
              LIVE_TIMELINE_BUCKETS,
            ).map((bucket) => ({
              ...bucket,
              firstIndex: bucket.firstIndex + view.pendingFirstIndex,
              lastIndex: bucket.lastIndex + view.pendingFirstIndex,
            })),
          }
        : null;
    for (const each of this.views.values()) {
      each.pendingCount = 0;
      each.pendingFirstIndex = each.nextIndex;
    }
    return { percentiles, timeline };
  }

  close(): void {
    for (const view of this.views.values()) view.histogram.destroy();
    this.views.clear();
  }

  private viewOf(op: Operation): OperationView {
    let view = this.views.get(op);
    if (!view) {
      view = {
        histogram: createLatencyHistogram(),
        requests: 0,
        nextIndex: 0,
        pending: new Float64Array(INITIAL_PENDING),
        pendingCount: 0,
        pendingFirstIndex: 0,
      };
      this.views.set(op, view);
    }
    return view;
  }
}

function percentilesOf(histogram: LatencyHistogram): LivePercentiles {
  const stats = latencyStatsMs(histogram);
  return {
    p50Ms: stats.p50,
    p90Ms: stats.p90,
    p99Ms: stats.p99,
    p999Ms: stats.p999,
    maxMs: stats.max,
    count: histogram.totalCount,
  };
}
