import type { PhaseSummary } from "@taillab/api";

/**
 * Successful requests a percentile needs before it is more than the slowest request: one in
 * 1 / (1 − p) is slower than it, so p99.9 needs 1 000 and p99.99 needs 10 000.
 */
export function requestsFor(percentile: number): number {
  return Math.round(100 / (100 - percentile));
}

/** p99.9 needs this many successful requests; with fewer it is the phase's max. */
export const P999_MIN_REQUESTS = requestsFor(99.9);

/** A phase whose p99.9 is only its slowest request: it answered fewer than 1 000 requests. */
export function p999IsMax(phase: Pick<PhaseSummary, "requests" | "errors">): boolean {
  const answered = phase.requests - phase.errors;
  return answered > 0 && answered < P999_MIN_REQUESTS;
}
