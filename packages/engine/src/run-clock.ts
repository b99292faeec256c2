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

/** The last stretch before a start is spun, not slept: timers fire a millisecond or more late. */
const SPIN_MS = 20;

/** Sleeps until shortly before `epochMs`, then spins to it; returns the time it got there. */
export async function spinUntil(epochMs: number): Promise<number> {
  const sleepMs = epochMs - epochNowMs() - SPIN_MS;
  if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
  let now = epochNowMs();
  while (now < epochMs) now = epochNowMs();
  return now;
}
