import type { FigureSpan, HeadlineSpan, PointSummary } from "@taillab/api";
import { phaseLatencyFigureMs } from "./imported-phase.ts";

/**
 * Each operation of a run over all its points: the lowest and highest p50, p99, p99.9 and ops/s
 * of the points that answered it, in the order the operations first ran. A sweep's library row
 * says this, not its first point.
 */
export function headlineSpans(points: readonly PointSummary[]): HeadlineSpan[] {
  const spans = new Map<HeadlineSpan["op"], SpanSoFar>();
  for (const point of points) {
    for (const phase of point.phases) {
      const span = spans.get(phase.op) ?? {
        op: phase.op,
        points: 0,
        p50Ms: null,
        p99Ms: null,
        p999Ms: null,
        opsPerSec: null,
        errors: 0,
      };
      span.errors += phase.errors;
      const p50 = phaseLatencyFigureMs(phase, "p50");
      // A point where every request failed has no latency and no throughput to compare.
      if (p50 !== null) {
        span.points += 1;
        span.p50Ms = widen(span.p50Ms, p50);
        span.p99Ms = widen(span.p99Ms, phaseLatencyFigureMs(phase, "p99"));
        span.p999Ms = widen(span.p999Ms, phaseLatencyFigureMs(phase, "p999"));
        span.opsPerSec = widen(span.opsPerSec, phase.opsPerSec);
      }
      spans.set(phase.op, span);
    }
  }
  return [...spans.values()].map((span) => ({
    ...span,
    opsPerSec: span.opsPerSec ?? { low: 0, high: 0 },
  }));
}

/** A span being gathered: no throughput until a point answered the operation. */
type SpanSoFar = Omit<HeadlineSpan, "opsPerSec"> & { opsPerSec: FigureSpan | null };

function widen(span: FigureSpan | null, value: number | null): FigureSpan | null {
  if (value === null) return span;
  return span === null
    ? { low: value, high: value }
    : { low: Math.min(span.low, value), high: Math.max(span.high, value) };
}
