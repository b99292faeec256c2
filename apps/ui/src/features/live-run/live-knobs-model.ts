import type { HedgeDelaySpec } from "@taillab/api";
import { formatKnobMs } from "../../shared/display-format.ts";
import { extraPercentOf } from "../../shared/chart-over-time.ts";
import { shownPhase, type LiveRunState } from "./live-run-state.ts";

/** The hedge delays the lab offers: percentiles of recent latencies, and fixed delays. */
export const HEDGE_DELAY_CHOICES: readonly HedgeDelaySpec[] = [
  { kind: "percentile", percentile: 90 },
  { kind: "percentile", percentile: 95 },
  { kind: "percentile", percentile: 99 },
  ...[2, 5, 10, 20, 50, 100, 200].map((delayMs) => ({ kind: "fixed" as const, delayMs })),
];

/** `p95` or `20 ms`, as the builder and the CLI write a hedge delay. */
export function hedgeDelayText(delay: HedgeDelaySpec): string {
  return delay.kind === "percentile" ? `p${delay.percentile}` : formatKnobMs(delay.delayMs);
}

export interface SecondFigures {
  startMs: number;
  p50Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
  /** Backups as a % of the second's requests; null when none answered. */
  extraPct: number | null;
}

/**
 * The figures of the last whole second of the phase shown (the newest is still filling), or
 * null before one has ended.
 */
export function liveNow(state: LiveRunState): SecondFigures | null {
  const intervals = shownPhase(state)?.overTime?.intervals ?? [];
  const last = intervals.at(state.status === "finished" ? -1 : -2);
  if (!last) return null;
  return {
    startMs: last.startMs,
    p50Ms: last.p50Ms,
    p99Ms: last.p99Ms,
    p999Ms: last.p999Ms,
    extraPct: extraPercentOf(last),
  };
}
