/**
 * The start barrier of a distributed run, in the bucket and without a leader: every shard claims
 * its index, says when it became ready, waits until all N are ready or one shared absolute
 * deadline passes, and derives the same start time T0 from the same markers.
 */
import { randomUUID } from "node:crypto";
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
import { CLOCK_LIMIT_MS, clockIsOff } from "@taillab/core";
import type { MarkerStore } from "./bucket-markers.ts";
import { startClockCheck, type ClockCheck } from "./clock-check.ts";
import type { ClockOffset } from "./server-clock.ts";
import { retryingMarkers, sleep } from "./storage-retry.ts";

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
  /** The endpoint the markers are on, for messages. */
  endpoint?: string;
  /** Stop waiting: writes this shard's abort marker, so the others do not start either. */
  signal?: AbortSignal;
  /**
   * Epoch ms now; default Date.now. Tests move it past the deadline instead of waiting for it,
   * or off the server's clock (with the markers' clock samples).
   */
  now?: () => number;
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

/**
 * "storage": the bucket kept failing (after retries) or refused the barrier's requests;
 * "unconditional": its server does not honour create-only writes (If-None-Match: *);
 * "clock": this shard's clock is more than CLOCK_LIMIT_MS off the storage server's.
 */
export type BarrierFailure =
  | "duplicate-index"
  | "deadline"
  | "aborted"
  | "late"
  | "stopped"
  | "storage"
  | "unconditional"
  | "clock";

/** Where each shard checks, once, that the server refuses to overwrite with If-None-Match. */
const PROBE_PREFIX = "if-none-match/";

/** The barrier did not pass: no shard of this run may start. */
export class StartBarrierError extends Error {
  readonly reason: BarrierFailure;
  /** The shards that were not ready by the deadline (reason "deadline"), or that aborted. */
  readonly shards: number[];
  /** This shard's clock against the server's, as far as it was checked. */
  readonly clock: ClockOffset | null;

  constructor(
    reason: BarrierFailure,
    message: string,
    { shards = [], clock = null }: { shards?: number[]; clock?: ClockOffset | null } = {},
  ) {
    super(message);
    this.name = "StartBarrierError";
    this.reason = reason;
    this.shards = shards;
    this.clock = clock;
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
  const { index, shards, startAtMs, deadlineMs, signal } = options;
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? defaultPollMs(shards);
  const graceMs = options.graceMs ?? defaultGraceMs(pollMs);
  const deadline = new Date(deadlineMs).toISOString();
  const counted = (found: ReadyMarker[]) => countedReady(found, { shards, deadlineMs });
  const isoNow = () => new Date(now()).toISOString();
  // Transient failures are retried while waiting still makes sense: until the deadline (and the
  // grace after it, to list once more and name who is missing), then for the last look at the
  // aborts until a grace after T0: a shard that starts a little late is still in the run.
  let giveUpAtMs = deadlineMs + graceMs;
  const markers = retryingMarkers(options.markers, {
    now,
    giveUpAtMs: () => giveUpAtMs,
    ...(signal ? { signal } : {}),
  });

  const giveUp = async (reason: BarrierFailure, message: string, missing: number[] = []) => {
    const clock = clockCheck?.stop() ?? null;
    // Whoever can still be told is: the others stop waiting for this shard.
    const unwritten = await markers
      .put(abortKey(index), JSON.stringify({ index, reason, at: isoNow(), clock }))
      .then(
        () => "",
        (error: unknown) => `; its abort marker could not be written (${(error as Error).message})`,
      );
    return new StartBarrierError(reason, `${message}${unwritten}`, { shards: missing, clock });
  };
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
    const [first] = aborted;
    if (first !== undefined) {
      throw new StartBarrierError(
        "aborted",
        `shard ${index}: the run was aborted by shard ${shardList(aborted)}${await abortReason(first)}; not starting`,
        { shards: aborted, clock: clockCheck?.stop() ?? null },
      );
    }
  };
  /** ` (shard 1: its clock)`: why the first shard that aborted did, when its marker says. */
  const abortReason = async (shard: number): Promise<string> => {
    const body = await options.markers.get(abortKey(shard)).catch(() => null);
    const reason = parseAbortReason(body);
    return reason === null ? "" : ` (shard ${shard}: ${ABORT_REASON_TEXT[reason]})`;
  };

  // Started once the claim gives a first sample; `as` keeps TypeScript from narrowing it to null.
  let clockCheck = null as ClockCheck | null;
  try {
    return await pass();
  } catch (error) {
    if (error instanceof StartBarrierError) throw error;
    throw await giveUp(
      "storage",
      `shard ${index}: the run's folder could not be used (${(error as Error).message}); not starting`,
    );
  } finally {
    clockCheck?.stop();
  }

  /**
   * Claims are create-only writes: on a server that overwrites instead, two shards could both
   * claim one index and run as the same shard. One probe key, written twice, tells.
   */
  async function refuseUnconditionalServer(): Promise<void> {
    const probe = `${PROBE_PREFIX}${index}-${randomUUID()}`;
    await markers.create(probe, "first");
    // The second write's bytes differ, so a retry of it that finds the key does not take the
    // first write for its own landed attempt.
    if ((await markers.create(probe, "second")).created) {
      const server = options.endpoint ? `the server at ${options.endpoint}` : "the server";
      throw await giveUp(
        "unconditional",
        `shard ${index}: ${server} does not honour If-None-Match (a create-only PUT of ${options.markers.where(probe)} overwrote it), so shards cannot claim their indexes safely; a distributed run needs a server that refuses it (412), such as AWS S3 or MinIO; not starting`,
      );
    }
  }

  async function pass(): Promise<BarrierPassed> {
    // A late joiner learns at once that the others have given up.
    await failIfAborted();
    if (now() > deadlineMs) throw await late();
    await refuseUnconditionalServer();
    // The claim id tells this shard's own marker from another's when a retried write finds it.
    const claim = await markers.create(
      readyKey(index),
      JSON.stringify({ index, shards, claimedAt: isoNow(), claim: randomUUID() }),
    );
    if (!claim.created) {
      throw new StartBarrierError(
        "duplicate-index",
        `shard ${index}: another shard already claimed index ${index} (${readyKey(index)} exists); this one does not start`,
      );
    }
    clockCheck = startClockCheck({
      first: claim.date,
      sample: () => options.markers.serverDate(),
      now,
    });
    // Before this shard counts as ready: a shard whose clock is off would start as far from the
    // others (warp's coordinator refuses such a client too), and the run would not be one.
    const clock = await clockCheck.decided;
    if (clock !== null && clockIsOff(clock)) {
      throw await giveUp("clock", clockRefusal(index, clock));
    }
    const readyAtMs = now();
    if (readyAtMs > deadlineMs) throw await late();
    await markers.put(readyAtKey({ index, readyAtMs }), "");

    let ready: ReadyMarker[];
    for (;;) {
      if (signal?.aborted) throw await giveUp("stopped", `shard ${index}: stopped at the barrier`);
      const listedAtMs = now();
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
    giveUpAtMs = t0Ms + graceMs;
    // Re-check just before T0: a shard that gave up at the deadline wrote its abort marker by then.
    await sleep(t0Ms - now() - Math.min(pollMs, graceMs / 4), signal);
    if (signal?.aborted) throw await giveUp("stopped", `shard ${index}: stopped before the start`);
    await failIfAborted();
    return { t0Ms, readyAtMs, ready, clock: clockCheck.stop() };
  }

  async function late(): Promise<StartBarrierError> {
    return giveUp(
      "late",
      `shard ${index}: ready at ${isoNow()}, after the barrier's deadline ${deadline}; not starting`,
    );
  }
}

/** "shard 2: this machine's clock is about 1.5 s behind the storage server's (± 0.04 s, …)" */
export function clockRefusal(index: number, { offsetMs, boundMs }: ClockOffset): string {
  const seconds = (ms: number, digits: number) => (Math.abs(ms) / 1000).toFixed(digits);
  return `shard ${index}: this machine's clock is about ${seconds(offsetMs, 1)} s ${offsetMs > 0 ? "behind" : "ahead of"} the storage server's (± ${seconds(boundMs, 2)} s, from its Date header), more than the ${CLOCK_LIMIT_MS / 1000} s a distributed run allows: it would start that far from the others; set its clock (NTP) and run again; not starting`;
}

/** How an aborting shard's reason reads in the others' messages. */
const ABORT_REASON_TEXT: Record<BarrierFailure, string> = {
  "duplicate-index": "its index claimed twice",
  deadline: "shards missing at the deadline",
  aborted: "the run aborted",
  late: "ready after the deadline",
  stopped: "stopped",
  storage: "the bucket failed",
  unconditional: "the server ignores If-None-Match",
  clock: `its clock more than ${CLOCK_LIMIT_MS / 1000} s off the storage server's`,
};

function parseAbortReason(body: Uint8Array | null): BarrierFailure | null {
  if (body === null) return null;
  try {
    const { reason } = JSON.parse(Buffer.from(body).toString("utf8")) as { reason?: unknown };
    return typeof reason === "string" && reason in ABORT_REASON_TEXT
      ? (reason as BarrierFailure)
      : null;
  } catch {
    return null;
  }
}

/** Uniform in [0.5, 1.5) × mean: shards that started together do not list in lockstep. */
function jittered(meanMs: number): number {
  return meanMs * (0.5 + Math.random());
}
