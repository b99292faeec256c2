import type {
  ClientSecond,
  IntervalStats,
  LivePercentiles,
  Operation,
  RunEvent,
  RunProgress,
} from "@taillab/api";
import type { LiveFigures } from "../run-benchmark.ts";

export type ProgressEvent = Extract<RunEvent, { type: "progress" }>;

/**
 * What a run's live screen gets beside its counts, taken from the engine's own accounting (the
 * same histograms that make the summary): the phase's percentiles so far and over its newest seconds, and its
 * percentiles per second. Progress comes ten times a second and is sent four times a second, so the intervals
 * that changed in between are gathered here (by start, the newest figures of each kept) and sent
 * with the next event.
 */
export class LiveRunView {
  private pointIndex = 0;
  private op: Operation | null = null;
  private percentiles: LivePercentiles | null = null;
  private recentPercentiles: LivePercentiles | null = null;
  private readonly changed = new Map<number, IntervalStats>();
  private readonly clientChanged = new Map<number, ClientSecond>();

  /** A measured phase starts: its figures start afresh. */
  startPhase(pointIndex: number, op: Operation): void {
    this.pointIndex = pointIndex;
    this.op = op;
    this.percentiles = null;
    this.recentPercentiles = null;
    this.changed.clear();
    this.clientChanged.clear();
  }

  update(
    progress: RunProgress,
    live: Pick<LiveFigures, "percentiles" | "intervals"> &
      Partial<Pick<LiveFigures, "clientSeconds" | "recentPercentiles">>,
  ): void {
    if (progress.op !== this.op) {
      // A mix shows its busiest operation, which can change: its intervals start afresh.
      this.op = progress.op;
      this.changed.clear();
    }
    this.percentiles = live.percentiles;
    this.recentPercentiles = live.recentPercentiles ?? null;
    for (const interval of live.intervals) this.changed.set(interval.startMs, interval);
    for (const second of live.clientSeconds ?? []) this.clientChanged.set(second.startMs, second);
  }

  /** The event for `progress`, with the intervals that changed since the last event. */
  progressEvent(progress: RunProgress): ProgressEvent {
    const intervals = [...this.changed.values()].sort((a, b) => a.startMs - b.startMs);
    this.changed.clear();
    const client = [...this.clientChanged.values()].sort((a, b) => a.startMs - b.startMs);
    this.clientChanged.clear();
    return {
      type: "progress",
      progress,
      percentiles: this.percentiles,
      recentPercentiles: this.recentPercentiles,
      intervals:
        intervals.length > 0 && this.op !== null
          ? { pointIndex: this.pointIndex, op: this.op, intervals }
          : null,
      ...(client.length > 0 ? { client } : {}),
    };
  }
}
