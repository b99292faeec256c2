import {
  ABORTED_ERROR,
  CANCELLED_ERROR,
  TIE_DROPPED_CODE,
  TIE_ID_HEADER,
  type HedgeOptions,
  type RequestMode,
} from "@taillab/api";
import {
  adaptiveHedgeDelay,
  createBackupQueue,
  createHedgeBudget,
  fixedHedgeDelay,
  percentileHedgeDelay,
  wentOnWire,
  type BackupQueue,
  type HedgeDelayPolicy,
  type ReplicaChooser,
} from "@taillab/core";
import { createTieIds } from "./tie-ids.ts";
import type { RequestOptions, RequestOutcome } from "./transport/index.ts";

/** Sends one attempt of a request to a replica. */
export type SendAttempt = (replica: number, options: RequestOptions) => Promise<RequestOutcome>;

export interface AttemptResult {
  attempt: number;
  replica: number;
  /** An attempt cancelled because another one answered first has the error "Cancelled". */
  outcome: RequestOutcome;
  cancelled: boolean;
}

export interface LogicalResult {
  /** In the order they were sent. */
  attempts: AttemptResult[];
  /** Index into attempts of the answer used, or null when every attempt failed. */
  winner: number | null;
  /** When a backup was due (ms after the first attempt), or null when none was armed. */
  hedgeDelayMs: number | null;
}

export interface RequestExecutor {
  /** The logical request: one attempt, or several to different replicas, first answer wins. */
  execute(send: SendAttempt, requestClass: string): Promise<LogicalResult>;
}

export interface ExecutorSettings {
  mode: RequestMode;
  hedge: HedgeOptions;
  chooser: ReplicaChooser;
  /** A stop of the run: in-flight attempts are aborted. */
  stopSignal: AbortSignal;
}

/**
 * normal: one attempt. hedged and adaptive: a backup to another replica when the first attempt
 * has not answered within the hedge delay, paid for by the budget (a request the budget cannot
 * pay for yet waits for the next token it earns, oldest first: see BackupQueue); the first
 * complete answer wins and the other attempt is aborted. tied: two copies at once (or
 * tiedDelayMs apart); when one starts answering, the other is aborted. tied-server: the same,
 * and both copies carry a tie id, so the replica that starts serving one drops the other from
 * its queue (a copy it answers TIE_DROPPED_CODE counts as cancelled). Each worker thread has its
 * own executor, so the delay statistics, budget and replica counts are per thread.
 */
export function createRequestExecutor(settings: ExecutorSettings): RequestExecutor {
  const { mode, hedge } = settings;
  if (mode === "normal") {
    // Every attempt takes the run's stop signal as it is: one options object serves them all.
    const options: RequestOptions = { signal: settings.stopSignal };
    return { execute: (send) => runSingleAttempt(send, settings.chooser, options) };
  }
  if (mode === "tied") {
    return {
      execute: (send) =>
        runAttempts(send, settings, { kind: "tied", delayMs: hedge.tiedDelayMs, tieId: null }),
    };
  }
  if (mode === "tied-server") {
    const tieIds = createTieIds();
    return {
      execute: (send) =>
        runAttempts(send, settings, { kind: "tied", delayMs: hedge.tiedDelayMs, tieId: tieIds() }),
    };
  }
  const policy = delayPolicy(mode, hedge);
  const budget = createHedgeBudget({ percent: hedge.budgetPercent });
  const backups = createBackupQueue(budget);
  return {
    async execute(send, requestClass) {
      budget.onRequest();
      backups.serve();
      const delayMs = policy.delayMs(requestClass);
      const result = await runAttempts(send, settings, { kind: "hedged", delayMs, backups });
      // The budget pays for backups that went on the wire only.
      const unsent = result.attempts.slice(1).filter((each) => !wentOnWire(each.outcome));
      if (unsent.length > 0) {
        unsent.forEach(() => budget.refund());
        backups.serve();
      }
      observeFirstAttempt(policy, requestClass, result);
      return result;
    },
  };
}

function delayPolicy(mode: "hedged" | "adaptive", hedge: HedgeOptions): HedgeDelayPolicy {
  const { delay, minSamples } = hedge;
  if (mode === "adaptive") {
    const percentile = delay.kind === "percentile" ? delay.percentile : 95;
    const floorPercentile = Math.max(0, Math.min(percentile, 100 - hedge.budgetPercent));
    return adaptiveHedgeDelay({ percentile, minSamples, floorPercentile });
  }
  return delay.kind === "fixed"
    ? fixedHedgeDelay(delay.delayMs)
    : percentileHedgeDelay({ percentile: delay.percentile, minSamples });
}

/**
 * The delay statistics learn from first attempts only: a backup's latency would describe a
 * request that already waited. A first attempt cancelled because its backup won is known only
 * to have taken longer than it ran; that lower bound is recorded rather than nothing, so stalls
 * still pull the percentile up instead of vanishing from it.
 */
function observeFirstAttempt(
  policy: HedgeDelayPolicy,
  requestClass: string,
  result: LogicalResult,
): void {
  const first = result.attempts[0];
  if (!first || (first.outcome.error !== null && !first.cancelled)) return;
  // The backup timer runs from the launch, so the delay is learnt on the same clock.
  policy.observe(requestClass, (first.outcome.endUs - first.outcome.readyUs) / 1000);
}

/**
 * The hot path of normal mode: one attempt has no twin to cancel, so it takes the run's stop
 * signal as it is, with no controller or listener of its own per request.
 */
async function runSingleAttempt(
  send: SendAttempt,
  chooser: ReplicaChooser,
  options: RequestOptions,
): Promise<LogicalResult> {
  const replica = chooser.pick();
  chooser.started(replica);
  const outcome = await send(replica, options);
  chooser.finished(replica);
  return {
    attempts: [{ attempt: 1, replica, outcome, cancelled: false }],
    winner: outcome.error === null ? 0 : null,
    hedgeDelayMs: null,
  };
}

type AttemptPlan =
  /** tieId: sent with both copies so the replicas cancel the twin themselves; null: not sent. */
  | { kind: "tied"; delayMs: number; tieId: string | null }
  | { kind: "hedged"; delayMs: number | null; backups: BackupQueue };

interface InFlight {
  attempt: number;
  replica: number;
  controller: AbortController;
  done: Promise<AttemptResult>;
  /** `done` has resolved. */
  settled: boolean;
  cancelled: boolean;
}

async function runAttempts(
  send: SendAttempt,
  { chooser, stopSignal }: ExecutorSettings,
  plan: AttemptPlan,
): Promise<LogicalResult> {
  const inFlight: InFlight[] = [];
  let answered: InFlight | null = null;
  const cancelOthers = (keep: InFlight) => {
    for (const other of inFlight) {
      if (other === keep || other.cancelled) continue;
      other.cancelled = true;
      other.controller.abort();
    }
  };
  const launch = (replica: number): InFlight => {
    const controller = new AbortController();
    const onStop = () => controller.abort();
    stopSignal.addEventListener("abort", onStop, { once: true });
    chooser.started(replica);
    const entry: InFlight = {
      attempt: inFlight.length + 1,
      replica,
      controller,
      cancelled: false,
      settled: false,
      done: null as unknown as Promise<AttemptResult>,
    };
    entry.done = send(replica, {
      signal: controller.signal,
      // A copy that loses with an error answer moved its body: the hedge cost counts it.
      countErrorBody: true,
      ...(plan.kind === "tied" && plan.tieId !== null
        ? { headers: { [TIE_ID_HEADER]: plan.tieId } }
        : {}),
      // A tied request keeps the first copy that starts answering and cancels its twin.
      onResponse: (status) => {
        if (plan.kind === "tied" && answered === null && status < 300) {
          answered = entry;
          cancelOthers(entry);
        }
      },
    }).then((outcome) => {
      entry.settled = true;
      chooser.finished(replica);
      stopSignal.removeEventListener("abort", onStop);
      // Cut short by its twin's answer rather than by a stop: not a failure of the server's.
      const cancelledHere =
        entry.cancelled && outcome.error === ABORTED_ERROR && !stopSignal.aborted;
      // Dropped by its replica because the twin started serving elsewhere.
      const droppedThere = plan.kind === "tied" && outcome.error === TIE_DROPPED_CODE;
      entry.cancelled ||= droppedThere;
      return {
        attempt: entry.attempt,
        replica,
        outcome: cancelledHere || droppedThere ? { ...outcome, error: CANCELLED_ERROR } : outcome,
        cancelled: entry.cancelled,
      };
    });
    inFlight.push(entry);
    return entry;
  };

  const first = launch(chooser.pick());
  let hedgeDelayMs: number | null = null;
  if (plan.kind === "tied" && plan.delayMs <= 0) {
    // Both copies in the same tick: a timer of 0 fires a millisecond or more later, by which
    // time a fast replica has answered the first copy and the twin is never sent.
    hedgeDelayMs = 0;
    launch(chooser.pick(first.replica));
  } else if (plan.delayMs !== null) {
    hedgeDelayMs = plan.delayMs;
    const answeredInTime = await settlesWithin(first.done, plan.delayMs, stopSignal);
    const wantsBackup = !answeredInTime && !stopSignal.aborted;
    const paid =
      wantsBackup && (plan.kind === "tied" || (await backupPaid(plan.backups, first, stopSignal)));
    // A token granted just as the first attempt answered buys nothing.
    if (paid && !first.settled && !stopSignal.aborted) launch(chooser.pick(first.replica));
  }
  const winner = await firstSuccess(inFlight);
  if (winner) cancelOthers(winner);
  const attempts = await Promise.all(inFlight.map((entry) => entry.done));
  const winnerIndex = winner ? inFlight.indexOf(winner) : null;
  return { attempts, winner: winnerIndex, hedgeDelayMs };
}

/**
 * True when `done` settles within `delayMs` (a stop counts as settled). Every listener is removed
 * on the way out: one left on the run's stop signal per request would pile up by the thousand.
 */
function settlesWithin(done: Promise<unknown>, delayMs: number, stopSignal: AbortSignal) {
  return new Promise<boolean>((resolve) => {
    let settled = false;
    const settle = (answered: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopSignal.removeEventListener("abort", onStop);
      resolve(answered);
    };
    const onStop = () => settle(true);
    const timer = setTimeout(() => settle(false), delayMs);
    stopSignal.addEventListener("abort", onStop, { once: true });
    void done.then(() => settle(true));
  });
}

/**
 * True once the budget pays for a backup of `first`; false when `first` answers or the run stops
 * before it does. Every listener is removed on the way out, as in settlesWithin.
 */
function backupPaid(backups: BackupQueue, first: InFlight, stopSignal: AbortSignal) {
  return new Promise<boolean>((resolve) => {
    let withdraw = () => {};
    let finished = false;
    const finish = (paid: boolean) => {
      if (finished) return;
      finished = true;
      withdraw();
      stopSignal.removeEventListener("abort", onStop);
      resolve(paid);
    };
    const onStop = () => finish(false);
    stopSignal.addEventListener("abort", onStop, { once: true });
    withdraw = backups.request(() => finish(true));
    void first.done.then(() => finish(false));
  });
}

/** The first attempt to succeed, or null when all failed; one cancelled by its twin never wins. */
async function firstSuccess(inFlight: InFlight[]): Promise<InFlight | null> {
  const pending = new Set(inFlight);
  while (pending.size > 0) {
    const finished = await Promise.race([...pending].map((entry) => entry.done.then(() => entry)));
    pending.delete(finished);
    const result = await finished.done;
    if (result.outcome.error === null && !finished.cancelled) return finished;
  }
  return null;
}
