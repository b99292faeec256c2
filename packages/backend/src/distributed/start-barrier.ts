/**
 * The start barrier of a distributed run, in the bucket and without a leader: every shard claims
 * its index, says when it became ready, waits until all N are ready or one shared absolute
 * deadline passes, and derives the same start time T0 from the same markers.
 */
import {
  ABORT_PREFIX,
  abortKey,
  countedReady,
  missingShards,
  parseAbort,
  parseReadyAt,
  READY_AT_PREFIX,
  readyAtKey,
  readyKey,
  shardList,
  startTimeMs,
  STOP_KEY,
  type ReadyMarker,
} from "./barrier-markers.ts";
import type { MarkerStore } from "./bucket-markers.ts";
import { clockIsOff, clockOffset, type ClockOffset } from "./server-clock.ts";

export interface StartBarrierOptions {
  markers: MarkerStore;
  /** This shard, 0 to shards - 1. */
  index: number;
  shards: number;
  /** The earliest start, epoch ms (the Job's start-at annotation). */
  startAtMs: number;
  /** The same for every shard: who is not ready by then is missing, and the run is aborted. */
  deadlineMs: number;
  /** Between the last shard's ready time and T0; default: see defaultGraceMs. */
  graceMs?: number;
  /** Mean time between listings; default: see defaultPollMs. */
  pollMs?: number;
  /** Warnings a user should see (a clock off by more than a second). */
  onNotice?: (message: string) => void;
  /** Stop waiting: writes this shard's abort marker, so the others do not start either. */
  signal?: AbortSignal;
}

export interface BarrierPassed {
  /** When every shard starts, epoch ms: the caller sleeps, then spins until it (the engine's spinUntil). */
  t0Ms: number;
  readyAtMs: number;
  /** Every shard's ready time, by index. */
  ready: ReadyMarker[];
  /** Server minus local clock, when the server sent a Date header. */
  clock: ClockOffset | null;
}

export type BarrierFailure = "duplicate-index" | "deadline" | "aborted" | "late" | "stopped";

/** The barrier did not pass: no shard of this run may start. */
export class StartBarrierError extends Error {
  readonly reason: BarrierFailure;
  /** The shards that were not ready by the deadline (reason "deadline"), or that aborted. */
  readonly shards: number[];

  constructor(reason: BarrierFailure, message: string, shards: number[] = []) {
    super(message);
    this.name = "StartBarrierError";
    this.reason = reason;
    this.shards = shards;
  }
}

/** Listings per second stay about 5 × 50 for the whole run however many shards poll. */
export function defaultPollMs(shards: number): number {
  return 200 * Math.max(1, Math.ceil(shards / 50));
}

/** Room for the slowest shard to see the last marker (a poll and a listing) and re-check aborts. */
export function defaultGraceMs(pollMs: number): number {
  return Math.max(2_000, 4 * pollMs);
}

export async function passStartBarrier(options: StartBarrierOptions): Promise<BarrierPassed> {
  const { markers, index, shards, startAtMs, deadlineMs, signal } = options;
  const pollMs = options.pollMs ?? defaultPollMs(shards);
  const graceMs = options.graceMs ?? defaultGraceMs(pollMs);
  const deadline = new Date(deadlineMs).toISOString();
  const counted = (found: ReadyMarker[]) => countedReady(found, { shards, deadlineMs });

  const failIfAborted = async () => {
    const names = await markers.list(ABORT_PREFIX);
    if (names.includes(STOP_KEY)) {
      // Its abort marker tells whoever stopped the run not to wait for this shard's result.
      throw await giveUp("stopped", `shard ${index}: the run was stopped; not starting`);
    }
    const aborted = names
      .map((name) => parseAbort(name.slice(ABORT_PREFIX.length)))
      .filter((shard) => shard !== null)
      .sort((a, b) => a - b);
    if (aborted.length > 0) {
      throw new StartBarrierError(
        "aborted",
        `shard ${index}: the run was aborted by shard ${shardList(aborted)}; not starting`,
        aborted,
      );
    }
  };
  const giveUp = async (reason: BarrierFailure, message: string, missing: number[] = []) => {
    await markers.put(abortKey(index), JSON.stringify({ index, reason, at: isoNow() }));
    return new StartBarrierError(reason, message, missing);
  };

  // A late joiner learns at once that the others have given up.
  await failIfAborted();
  const readyAtMs = Date.now();
  if (readyAtMs > deadlineMs) {
    throw await giveUp(
      "late",
      `shard ${index}: ready at ${isoNow()}, after the barrier's deadline ${deadline}; not starting`,
    );
  }
  const claim = await markers.create(
    readyKey(index),
    JSON.stringify({ index, shards, readyAt: new Date(readyAtMs).toISOString() }),
  );
  if (!claim.created) {
    throw new StartBarrierError(
      "duplicate-index",
      `shard ${index}: another shard already claimed index ${index} (${readyKey(index)} exists); this one does not start`,
    );
  }
  const clock = claim.date === null ? null : clockOffset(claim.date);
  if (clock !== null && clockIsOff(clock)) {
    options.onNotice?.(
      `shard ${index}: this clock is ${(clock.offsetMs / 1000).toFixed(1)} s off the storage server's (Date header): it will start that far from the others`,
    );
  }
  await markers.put(readyAtKey({ index, readyAtMs }), "");

  let ready: ReadyMarker[];
  for (;;) {
    if (signal?.aborted) throw await giveUp("stopped", `shard ${index}: stopped at the barrier`);
    const listedAtMs = Date.now();
    await failIfAborted();
    ready = counted(
      (await markers.list(READY_AT_PREFIX))
        .map((name) => parseReadyAt(name.slice(READY_AT_PREFIX.length)))
        .filter((marker) => marker !== null),
    );
    if (ready.length === shards) break;
    // Only a listing made after the deadline may conclude that shards are missing.
    if (listedAtMs > deadlineMs) {
      const missing = missingShards(ready, shards);
      throw await giveUp(
        "deadline",
        `shard ${index}: shard ${shardList(missing)} of ${shards} not ready by the deadline ${deadline}; the run is aborted`,
        missing,
      );
    }
    await sleep(jittered(pollMs), signal);
  }

  const t0Ms = startTimeMs(ready, { startAtMs, graceMs });
  // Re-check just before T0: a shard that gave up at the deadline wrote its abort marker by then.
  await sleep(t0Ms - Date.now() - Math.min(pollMs, graceMs / 4), signal);
  if (signal?.aborted) throw await giveUp("stopped", `shard ${index}: stopped before the start`);
  await failIfAborted();
  return { t0Ms, readyAtMs, ready, clock };
}

/** Uniform in [0.5, 1.5) × mean: shards that started together do not list in lockstep. */
function jittered(meanMs: number): number {
  return meanMs * (0.5 + Math.random());
}

function isoNow(): string {
  return new Date().toISOString();
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
