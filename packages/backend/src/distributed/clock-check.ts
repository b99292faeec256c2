/**
 * A shard's clock against the storage server's, narrowed while it waits at the barrier: the Date
 * header has whole seconds, so one response bounds the offset only to about ± 0.5 s; a few more,
 * each sent to reach the server as its clock turns a second (nextProbeAtMs), bound it to about
 * the round trip. Enough to tell a clock more than a second off from one that is not.
 */
import { clockIsOff, clockIsWithinLimit } from "@taillab/core";
import {
  clockOffset,
  combinedClockOffset,
  nextProbeAtMs,
  type ClockOffset,
  type ServerDateSample,
} from "./server-clock.ts";
import { sleep } from "./storage-retry.ts";

export interface ClockCheckOptions {
  /** A sample already taken (the barrier's claim), or null when the server sent no Date. */
  first: ServerDateSample | null;
  /** One more look at the server's clock. */
  sample: () => Promise<ServerDateSample | null>;
  /** Epoch ms now, on the clock the samples were stamped with; default Date.now. */
  now?: () => number;
  /** Default 8. */
  maxProbes?: number;
  /** Stop once the offset is known within ± this; default 50 ms. */
  targetBoundMs?: number;
}

export interface ClockCheck {
  /**
   * The offset as soon as it tells whether the clock is within CLOCK_LIMIT_MS (or the looks are
   * used up, or stopped); null when the server sends no Date. Looks go on after it, to narrow the
   * figure kept with the shard's result.
   */
  decided: Promise<ClockOffset | null>;
  /** Stops looking; the offset as narrowed so far. */
  stop(): ClockOffset | null;
}

export function startClockCheck(options: ClockCheckOptions): ClockCheck {
  const { first, sample, maxProbes = 8, targetBoundMs = 50, now = Date.now } = options;
  const firstOffset = first && clockOffset(first);
  const offsets: ClockOffset[] = firstOffset ? [firstOffset] : [];
  const stopping = new AbortController();
  let roundTripMs = first ? first.receivedAtMs - first.sentAtMs : 0;
  let decide: (offset: ClockOffset | null) => void = () => {};
  const decided = new Promise<ClockOffset | null>((resolve) => (decide = resolve));
  const decideIfKnown = () => {
    const current = combinedClockOffset(offsets);
    if (current === null || clockIsOff(current) || clockIsWithinLimit(current)) decide(current);
  };

  void (async () => {
    decideIfKnown();
    // A server that sends no Date has nothing more to say.
    if (offsets.length === 0) return;
    for (let probes = 0; probes < maxProbes; probes += 1) {
      const current = combinedClockOffset(offsets) as ClockOffset;
      if (current.boundMs <= targetBoundMs) break;
      const nowMs = now();
      await sleep(nextProbeAtMs(current, nowMs, roundTripMs) - nowMs, stopping.signal);
      if (stopping.signal.aborted) return;
      // A look that failed says nothing about the clock; the barrier's own calls say the rest.
      const seen = await sample().catch(() => null);
      if (stopping.signal.aborted) return;
      const offset = seen && clockOffset(seen);
      if (seen && offset) {
        offsets.push(offset);
        roundTripMs = seen.receivedAtMs - seen.sentAtMs;
        decideIfKnown();
      }
    }
    // Still undecided: as close to the limit as the looks can tell, which is not surely off.
    decide(combinedClockOffset(offsets));
  })();

  return {
    decided,
    stop() {
      stopping.abort();
      const offset = combinedClockOffset(offsets);
      decide(offset);
      return offset;
    },
  };
}
