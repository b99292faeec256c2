import type { ClockCheck } from "@taillab/api";

/**
 * How far a shard's clock may be from the storage server's: shards agree on an absolute start,
 * so a shard whose clock is off starts off by as much. warp's coordinator refuses clients more
 * than this off; a distributed run's start barrier refuses such a shard too.
 */
export const CLOCK_LIMIT_MS = 1_000;

/** Surely more than CLOCK_LIMIT_MS off, whatever the Date header's rounding. */
export function clockIsOff({ offsetMs, boundMs }: ClockCheck): boolean {
  return Math.abs(offsetMs) - boundMs > CLOCK_LIMIT_MS;
}

/** Surely within CLOCK_LIMIT_MS. */
export function clockIsWithinLimit({ offsetMs, boundMs }: ClockCheck): boolean {
  return Math.abs(offsetMs) + boundMs <= CLOCK_LIMIT_MS;
}

/** Two shards whose clocks are surely further apart than CLOCK_LIMIT_MS, and by how much. */
export interface ClocksApart {
  /** The shard whose clock is furthest behind the server's, then the one furthest ahead. */
  shards: [number, number];
  apartMs: number;
  /** apartMs is within ± this. */
  boundMs: number;
}

/**
 * The two shards whose clocks are furthest apart, when they surely are more than CLOCK_LIMIT_MS
 * apart, else null. Their measured windows are then placed on the merged clock as their own
 * clocks read them, not as they were: how together they started and when all were busy is not
 * known. (Only shards whose clocks passed the barrier's check get here: the server's clock stepped,
 * or results from before the barrier refused such a shard.)
 */
export function clocksApart(
  clocks: readonly { index: number; clock: ClockCheck | null }[],
): ClocksApart | null {
  const checked = clocks.flatMap(({ index, clock }) => (clock ? [{ index, ...clock }] : []));
  if (checked.length < 2) return null;
  // Server minus local: the largest offset is the clock furthest behind.
  const behind = checked.reduce((a, b) => (b.offsetMs > a.offsetMs ? b : a));
  const ahead = checked.reduce((a, b) => (b.offsetMs < a.offsetMs ? b : a));
  const apartMs = behind.offsetMs - ahead.offsetMs;
  const boundMs = behind.boundMs + ahead.boundMs;
  if (apartMs - boundMs <= CLOCK_LIMIT_MS) return null;
  return { shards: [behind.index, ahead.index], apartMs, boundMs };
}
