import type { CoordinatedOmission, PhaseSummary } from "@taillab/api";

/**
 * What a closed loop leaves out (coordinated omission): each client waits for its answer before
 * sending the next request, so while the server is slow fewer requests are sent and the slow
 * moments are under-counted; a request arriving at a random moment would see more. Every
 * closed-loop phase gets a note; it is strong when the completions show it happened:
 */
export const COORDINATED_OMISSION_LIMITS = {
  /**
   * Nothing completed, every client busy, for this many times the p99: the clients sat out a
   * stall that an open loop would have sent requests into (a 1 s freeze against a 30 ms p99).
   */
  gapOverP99: 10,
  /** Gaps shorter than this are scheduling noise (a GC pause, a slow steady bucket). */
  minimumGapMs: 100,
  /** The slowest request took this many times the p99: the tail above p99 is hidden. */
  maxOverP99: 10,
  /** The open-loop equivalent runs just under the measured throughput, so it can keep up. */
  rateShare: 0.9,
} as const;

export type CoordinatedOmissionNote = CoordinatedOmission;

/** The note of a closed-loop phase, or null for an open loop (it measures from the schedule). */
export function coordinatedOmissionNote(
  phase: Omit<PhaseSummary, "coordinatedOmission">,
): CoordinatedOmissionNote | null {
  if (phase.loop !== "closed") return null;
  const latency = phase.latencyMs;
  const gapMs = phase.completionGapMs ?? 0;
  const maxOverP99 = latency && latency.p99 > 0 ? latency.max / latency.p99 : 0;
  const limits = COORDINATED_OMISSION_LIMITS;
  const gapShows =
    latency !== null && gapMs >= limits.minimumGapMs && gapMs >= limits.gapOverP99 * latency.p99;
  const strong = gapShows || maxOverP99 >= limits.maxOverP99;
  const rateHz = openLoopRateHz(phase.steady?.opsPerSec ?? phase.opsPerSec);
  return {
    strength: strong ? "strong" : "note",
    gapMs,
    maxOverP99: Math.round(maxOverP99 * 10) / 10,
    openLoopRateHz: rateHz,
    flags: `--rate ${rateHz}/s`,
  };
}

/** Just under `opsPerSec`, rounded down to two significant digits (at least 1). */
export function openLoopRateHz(opsPerSec: number): number {
  const target = opsPerSec * COORDINATED_OMISSION_LIMITS.rateShare;
  if (!(target >= 1)) return 1;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(target)) - 1);
  return Math.floor(target / step) * step;
}

/** The CLI flags that rerun a phase as the open-loop equivalent. */
export function openLoopFlags(note: CoordinatedOmissionNote): string {
  return note.flags;
}
