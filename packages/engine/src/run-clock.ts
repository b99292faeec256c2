import { performance } from "node:perf_hooks";

/** This thread's performance.now() on the process's monotonic clock, and the error bound. */
export interface MonotonicMapping {
  /** Monotonic ms = performance.now() + offsetMs. */
  offsetMs: number;
  /** Half the tightest bracket of performance.now() reads around a monotonic read, ms. */
  errorMs: number;
}

/**
 * Maps this thread's performance.now() onto process.hrtime, the one monotonic clock every thread
 * of the process reads: the monotonic read bracketed by two reads of performance.now(), the
 * tightest bracket of a few dozen kept. Mapping each thread through its own
 * performance.timeOrigin instead (a wall-clock reading taken as the thread started) put threads
 * up to 47 µs apart, and an open loop's latency mixes the pacer thread's time with a worker's.
 */
export function measureMonotonicMapping(rounds = 64): MonotonicMapping {
  let best: MonotonicMapping = { offsetMs: 0, errorMs: Number.POSITIVE_INFINITY };
  for (let round = 0; round < rounds; round += 1) {
    const before = performance.now();
    const monotonicMs = Number(process.hrtime.bigint()) / 1e6;
    const after = performance.now();
    const errorMs = (after - before) / 2;
    if (errorMs < best.errorMs) best = { offsetMs: monotonicMs - (before + after) / 2, errorMs };
  }
  return best;
}

let threadMapping: MonotonicMapping | null = null;

/** This thread's mapping, measured on first use. */
export function monotonicMapping(): MonotonicMapping {
  return (threadMapping ??= measureMonotonicMapping());
}

/** Where an epoch instant falls on the monotonic clock, as this thread maps the two. */
export function monotonicMsAtEpoch(epochMs: number): number {
  return performance.now() + monotonicMapping().offsetMs - (epochNowMs() - epochMs);
}

/**
 * Microseconds since the run started, which is `runStartMonotonicMs` on the process's monotonic
 * clock (monotonicMsAtEpoch of the run's start, taken once by the coordinator): every thread
 * counts from the same instant on the same clock, within its mapping's error.
 */
export function createRunClock(runStartMonotonicMs: number): () => number {
  const offsetMs = monotonicMapping().offsetMs - runStartMonotonicMs;
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
