import { ABORTED_ERROR, CANCELLED_ERROR, TIMEOUT_ERROR } from "@taillab/api";
import type { LogicalResult } from "./hedged-tied-executor.ts";

/**
 * Whether the server still answers, judged over every worker of a phase from one shared buffer.
 * A request that got no HTTP answer at all (refused, reset, timed out) makes the clients back
 * off before their next one, from 10 ms doubling to 1 s, so a dead server costs a handful of
 * failures rather than thousands of ECONNREFUSED a second. Once nothing but such failures came
 * for SERVER_LOST_AFTER_MS, or for one request timeout when that is shorter (at least
 * SERVER_LOST_FAILURES of them, or one that got not even headers in a whole request timeout:
 * one client alone then finds a hung server within one timeout, not two), the server is lost:
 * the phase ends early and the coordinator says since when. A hung server is found when the requests in flight as it hung time out, not
 * a second timeout later. Any answer, an error status included, shows the server is there and
 * ends the streak.
 */

/** Int32 slots of the shared buffer. */
const SLOT = { failures: 0, firstFailureMs: 1, lost: 2 } as const;
const SLOTS = 3;

export const SERVER_LOST_AFTER_MS = 5_000;
export const SERVER_LOST_FAILURES = 2;
const FIRST_BACKOFF_MS = 10;
const MAX_BACKOFF_MS = 1_000;

export function createHealthBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
}

/** What a request's attempts say about the server. */
export type RequestVerdict = "answered" | "unanswered" | "silent" | "cut";

/**
 * answered: some attempt got an HTTP answer in time (any status); cut: every attempt was stopped
 * or cancelled by the client (it says nothing about the server); silent: no attempt got even its
 * headers, and one waited a whole request timeout for them; unanswered: the others, a server that
 * sent its headers and then dripped the rest past the request timeout among them.
 */
export function verdictOf(result: LogicalResult): RequestVerdict {
  // Asked of every request: the attempts are read where they are, with no array made of them.
  const { attempts } = result;
  if (attempts.some(({ outcome }) => outcome.status > 0 && outcome.error !== TIMEOUT_ERROR)) {
    return "answered";
  }
  const cut = attempts.every(
    ({ outcome }) => outcome.error === ABORTED_ERROR || outcome.error === CANCELLED_ERROR,
  );
  if (cut) return "cut";
  const silent =
    attempts.every(({ outcome }) => outcome.status === 0) &&
    attempts.some(({ outcome }) => outcome.error === TIMEOUT_ERROR);
  return silent ? "silent" : "unanswered";
}

/** Since when the server did not answer, as the worker that noticed saw it. */
export interface ServerLoss {
  /** Run time (ms) the first request of the streak was sent. */
  sinceMs: number;
  /** Run time (ms) it was declared lost. */
  atMs: number;
  /** Requests in a row without an answer. */
  failures: number;
  /** The last one's error code. */
  lastError: string;
}

export interface HealthNote {
  /** Wait this long before the next request (0: go on). */
  pauseMs: number;
  /** Set once, for the one request that found the server lost. */
  loss: ServerLoss | null;
}

/** The note of nearly every request, one for all. */
const GO_ON: HealthNote = Object.freeze({ pauseMs: 0, loss: null });

export class ServerHealth {
  private readonly slots: Int32Array;
  private readonly nowMs: () => number;
  private readonly lostAfterMs: number;

  /** `requestTimeoutMs`: the run's; a silence that long is enough when under 5 s. */
  constructor(buffer: SharedArrayBuffer, nowMs: () => number, requestTimeoutMs = Infinity) {
    this.slots = new Int32Array(buffer);
    this.nowMs = nowMs;
    this.lostAfterMs = Math.min(SERVER_LOST_AFTER_MS, requestTimeoutMs);
  }

  get lost(): boolean {
    return Atomics.load(this.slots, SLOT.lost) === 1;
  }

  /** A finished request: `sentMs` is when its first attempt went out, `error` its last code. */
  note(verdict: RequestVerdict, sentMs: number, error: string | null): HealthNote {
    if (verdict === "cut") return GO_ON;
    if (verdict === "answered") {
      if (Atomics.load(this.slots, SLOT.failures) !== 0) {
        Atomics.store(this.slots, SLOT.failures, 0);
        Atomics.store(this.slots, SLOT.firstFailureMs, 0);
      }
      return GO_ON;
    }
    const failures = Atomics.add(this.slots, SLOT.failures, 1) + 1;
    // Stored plus one: 0 means no streak, and a request may go out at run time 0.
    Atomics.compareExchange(this.slots, SLOT.firstFailureMs, 0, Math.floor(sentMs) + 1);
    const sinceMs = Atomics.load(this.slots, SLOT.firstFailureMs) - 1;
    const atMs = this.nowMs();
    const pauseMs = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(failures - 1, 20));
    // A silent request waited its whole timeout, which is never shorter than lostAfterMs, by its
    // own deadline: that deadline starts before the send is stamped on the run's clock, so on a
    // busy machine the run's clock may count a little less, and a second timeout was waited.
    const gone =
      sinceMs >= 0 &&
      (verdict === "silent" ||
        (failures >= SERVER_LOST_FAILURES && atMs - sinceMs >= this.lostAfterMs));
    if (!gone || Atomics.compareExchange(this.slots, SLOT.lost, 0, 1) !== 0) {
      return { pauseMs, loss: null };
    }
    return { pauseMs, loss: { sinceMs, atMs, failures, lastError: error ?? "unknown" } };
  }
}
