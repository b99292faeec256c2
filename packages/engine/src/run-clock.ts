import { performance } from "node:perf_hooks";

/**
 * Microseconds since the run started. Every worker thread has its own performance.now() origin,
 * so times are taken as epoch (timeOrigin + now) and shifted by the run's start, which makes
 * records from different threads comparable.
 */
export function createRunClock(runStartEpochMs: number): () => number {
  const offsetMs = performance.timeOrigin - runStartEpochMs;
  return () => Math.round((offsetMs + performance.now()) * 1000);
}

export function epochNowMs(): number {
  return performance.timeOrigin + performance.now();
}
