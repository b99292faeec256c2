import type { IntervalStats, LiveKnob, LiveTuning, RunMarker } from "@taillab/api";

/** A stretch of a live session with one setting of its knobs, and the requests answered in it. */
export interface KnobSpan {
  /** ms of the run clock. */
  fromMs: number;
  /** null: until the session ended. */
  toMs: number | null;
  tuning: LiveTuning;
  /** What changed at its start (none for the session's start). */
  changed: LiveKnob[];
  /** Requests in the seconds that started within it (a second is counted once, where it began). */
  requests: number;
}

/**
 * A live session's history, one span per marker: what each setting was and how many requests
 * ran under it (2 → 3 → 1 replicas are three spans). Seconds before the first marker count in
 * the first span.
 */
export function knobSpans(
  markers: readonly RunMarker[],
  intervals: readonly IntervalStats[],
): KnobSpan[] {
  const ordered = [...markers].sort((a, b) => a.atMs - b.atMs);
  const spans: KnobSpan[] = ordered.map((marker, index) => ({
    fromMs: marker.atMs,
    toMs: ordered[index + 1]?.atMs ?? null,
    tuning: marker.tuning,
    changed: marker.changed,
    requests: 0,
  }));
  for (const interval of intervals) {
    const span =
      spans.findLast((each) => each.fromMs <= interval.startMs) ?? (spans[0] as KnobSpan);
    if (span) span.requests += interval.requests;
  }
  return spans;
}
