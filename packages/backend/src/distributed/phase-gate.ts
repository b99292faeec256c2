/**
 * The gate before each measured phase after the run's first (that one is the start barrier): a
 * shard that ended its phases says so in the bucket, waits for the others still in the run, and
 * starts the next phase with them, so one shard's writes never overlap another's reads and every
 * phase's window is the same on every shard, as warp's stages are. Lighter than the barrier:
 * nothing aborts. A shard that left its done marker (finished, failed or stopped), or whose end
 * the run's starter saw (its gone marker: a killed pod), is not waited for; one that does not arrive within `waitMs` of the first (killed, or far slower) is left
 * behind and not waited for at the next gates. Every shard derives the same start from the same
 * markers: the last arrival counted plus the grace.
 */
import {
  countedReady,
  parseReadyAt,
  phaseKey,
  phasePrefix,
  shardList,
  type ReadyMarker,
} from "./barrier-markers.ts";
import type { MarkerStore } from "./bucket-markers.ts";
import { DONE_PREFIX, GONE_PREFIX, shardOfName } from "./run-folder-layout.ts";
import { retryingMarkers, sleep } from "./storage-retry.ts";

export interface PhaseGateOptions {
  markers: MarkerStore;
  index: number;
  shards: number;
  /** The run's number of the phase about to start. */
  phaseIndex: number;
  /** The shards worth waiting for: those that came to the last gate (or passed the barrier). */
  expected: readonly number[];
  /** How long after the first shard came the others are waited for. */
  waitMs: number;
  /** Mean time between listings (the barrier's defaultPollMs). */
  pollMs: number;
  /** Between the last arrival and the start; default 4 polls, room for every shard to see it. */
  graceMs?: number;
  /** Shards left behind, and a gate that could not be read (the phase then starts at once). */
  onNotice?: (message: string) => void;
  /** A stopped shard does not wait: the phase starts and sees the stop. */
  signal?: AbortSignal;
  now?: () => number;
}

export interface PhaseGatePassed {
  /** When the phase starts, epoch ms. */
  startMs: number;
  /** The shards that came in time, by index: the ones the next gate waits for. */
  arrived: number[];
}

export async function passPhaseGate(options: PhaseGateOptions): Promise<PhaseGatePassed> {
  const { index, shards, phaseIndex, expected, waitMs, pollMs, signal } = options;
  const now = options.now ?? Date.now;
  const graceMs = options.graceMs ?? 4 * pollMs;
  const cameAtMs = now();
  let giveUpAtMs = cameAtMs + waitMs;
  const markers = retryingMarkers(options.markers, {
    now,
    giveUpAtMs: () => giveUpAtMs,
    ...(signal ? { signal } : {}),
  });
  try {
    await markers.put(phaseKey(phaseIndex, { index, readyAtMs: cameAtMs }), "");
    for (;;) {
      if (signal?.aborted) return { startMs: now(), arrived: [...expected] };
      const listedAtMs = now();
      const [names, doneNames, goneNames] = await Promise.all([
        markers.list(phasePrefix(phaseIndex)),
        markers.list(DONE_PREFIX),
        markers.list(GONE_PREFIX),
      ]);
      const arrivals = names
        .map((name) => parseReadyAt(name.slice(phasePrefix(phaseIndex).length)))
        .filter((marker) => marker !== null);
      // This shard's own marker is among them: listings read what was written before them.
      const deadlineMs = Math.min(cameAtMs, ...arrivals.map((marker) => marker.readyAtMs)) + waitMs;
      giveUpAtMs = deadlineMs;
      const counted = countedReady(arrivals, { shards, deadlineMs });
      const came = new Set(counted.map((marker) => marker.index));
      const done = new Set(doneNames.map((name) => shardOfName("done", name)));
      const goneShards = new Set(goneNames.map((name) => shardOfName("gone", name)));
      const gone = expected.filter((shard) => !came.has(shard) && goneShards.has(shard));
      const waiting = expected.filter(
        (shard) => !came.has(shard) && !done.has(shard) && !gone.includes(shard),
      );
      if (gone.length > 0 && waiting.length === 0) {
        options.onNotice?.(
          `shard ${index}: shard ${shardList(gone)} ended without its result (its pod failed); phase ${phaseIndex} starts without it`,
        );
      }
      if (waiting.length === 0 || listedAtMs > deadlineMs) {
        if (waiting.length > 0) {
          options.onNotice?.(
            `shard ${index}: shard ${shardList(waiting)} did not end phase ${phaseIndex - 1} within ${waitMs / 1000} s of the first; phase ${phaseIndex} starts without it`,
          );
        }
        return { startMs: phaseStartMs(counted, graceMs), arrived: [...came] };
      }
      await sleep(pollMs * (0.5 + Math.random()), signal);
    }
  } catch (error) {
    options.onNotice?.(
      `shard ${index}: phase ${phaseIndex} starts without waiting for the other shards: ${(error as Error).message}`,
    );
    return { startMs: now(), arrived: [...expected] };
  }
}

/** The last counted arrival plus the grace: the same for every shard that saw the same markers. */
export function phaseStartMs(counted: readonly ReadyMarker[], graceMs: number): number {
  return Math.max(...counted.map((marker) => marker.readyAtMs)) + graceMs;
}
