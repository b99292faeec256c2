/**
 * The start barrier's markers in the bucket and the start time every shard derives from them
 * (pure). Under the run's prefix:
 * - `ready/I`: shard I claims its index (written with If-None-Match: *, so a second shard of the
 *   same index is refused);
 * - `ready-at/I@MS`: then shard I says when it became ready (epoch milliseconds), in the key so
 *   one listing gives every shard's time without a GET per marker;
 * - `abort/I`: shard I gave up (deadline passed, or stopped); nobody starts after one exists.
 * - `abort/stop`: whoever started the run stopped it (`taillab k8s run`'s Stop); the same.
 * - `phase/P/I@MS`: shard I ended its phases before phase P (the run's phase number) at MS and
 *   waits for the others there (phase-gate.ts), so every measured phase starts together.
 */

export const READY_PREFIX = "ready/";
export const READY_AT_PREFIX = "ready-at/";
export const ABORT_PREFIX = "abort/";

export interface ReadyMarker {
  index: number;
  readyAtMs: number;
}

export const readyKey = (index: number): string => `${READY_PREFIX}${index}`;

export const readyAtKey = ({ index, readyAtMs }: ReadyMarker): string =>
  `${READY_AT_PREFIX}${index}@${Math.round(readyAtMs)}`;

export const abortKey = (index: number): string => `${ABORT_PREFIX}${index}`;

export const STOP_KEY = `${ABORT_PREFIX}stop`;

export const phasePrefix = (phaseIndex: number): string => `phase/${phaseIndex}/`;

export const phaseKey = (phaseIndex: number, { index, readyAtMs }: ReadyMarker): string =>
  `${phasePrefix(phaseIndex)}${index}@${Math.round(readyAtMs)}`;

const READY_AT_NAME = /^(\d+)@(\d+)$/;
const INDEX_NAME = /^\d+$/;

/** A `ready-at/` key's name (the part after the prefix), or null for anything else. */
export function parseReadyAt(name: string): ReadyMarker | null {
  const match = READY_AT_NAME.exec(name);
  return match ? { index: Number(match[1]), readyAtMs: Number(match[2]) } : null;
}

/** An `abort/` key's shard index, or null for anything else. */
export function parseAbort(name: string): number | null {
  return INDEX_NAME.test(name) ? Number(name) : null;
}

/**
 * The markers that count: one per index of this run (0 to shards - 1), ready by the deadline. A
 * shard that became ready later may not complete a barrier that others have given up on.
 */
export function countedReady(
  markers: readonly ReadyMarker[],
  { shards, deadlineMs }: { shards: number; deadlineMs: number },
): ReadyMarker[] {
  const byIndex = new Map<number, ReadyMarker>();
  for (const marker of markers) {
    if (marker.index >= shards || marker.readyAtMs > deadlineMs) continue;
    const seen = byIndex.get(marker.index);
    if (seen === undefined || marker.readyAtMs < seen.readyAtMs) byIndex.set(marker.index, marker);
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** The indexes (0 to shards - 1) that have no counted marker. */
export function missingShards(counted: readonly ReadyMarker[], shards: number): number[] {
  const ready = new Set(counted.map((marker) => marker.index));
  return Array.from({ length: shards }, (_, index) => index).filter((index) => !ready.has(index));
}

/**
 * T0: the first whole second after startAt (startAt itself included) that is at least the latest
 * ready time + grace. The same for every shard that sees the same markers, late enough for every
 * shard to have seen them and re-checked for aborts, and a whole number of seconds after startAt:
 * shards count their run clocks from startAt plus whole seconds too (alignedRunStartMs), so their
 * one-second intervals line up when they are merged.
 */
export function startTimeMs(
  counted: readonly ReadyMarker[],
  { startAtMs, graceMs }: { startAtMs: number; graceMs: number },
): number {
  const lastReadyMs = Math.max(...counted.map((marker) => marker.readyAtMs));
  const wait = Math.max(0, lastReadyMs + graceMs - startAtMs);
  return startAtMs + Math.ceil(wait / 1000) * 1000;
}

/**
 * Where a shard's run clock starts: the latest instant at or before `nowMs` that is a whole
 * number of seconds from startAt (before or after it). Every shard's clock then reads whole
 * seconds at T0 and at each other's origins, so their intervals and steady buckets line up.
 */
export function alignedRunStartMs(startAtMs: number, nowMs: number): number {
  return startAtMs + Math.floor((nowMs - startAtMs) / 1000) * 1000;
}

/** "0, 3 and 7" (at most `limit` named, then how many more). */
export function shardList(indexes: readonly number[], limit = 10): string {
  const named = indexes.slice(0, limit).map(String);
  const more = indexes.length - named.length;
  if (more > 0) return `${named.join(", ")} and ${more} more`;
  if (named.length < 2) return named.join("");
  return `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}
