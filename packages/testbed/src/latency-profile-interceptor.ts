/**
 * A latency profile as a RequestInterceptor for one replica: its own random stream, its own
 * service slots. Only the data plane is shaped (each operation's module says whether it is part).
 */
import { TIE_DROPPED_CODE, TIE_DROPPED_STATUS, type LatencyProfile } from "@taillab/api";
import { createRandom } from "@taillab/core";
import { noisyNeighbourFactor, planRequest, type RequestPlan } from "./latency-sampler.ts";
import type { InterceptDecision, RequestInterceptor } from "./request-interceptor.ts";
import { BODY_PROFILED_OPERATIONS, PROFILED_OPERATIONS } from "./operations/registry.ts";
import { createServiceSlots, type ServiceSlots } from "./service-slots.ts";
import { sleepAtLeast } from "./sleep-at-least.ts";
import type { TieBoard } from "./tie-board.ts";

export interface LatencyProfileInterceptorOptions {
  /** Validated, e.g. by resolveLatencyProfile. */
  profile: LatencyProfile;
  seed: number;
  /** This replica's index: picks its random stream and whether it is the noisy neighbour. */
  replica: number;
  /** Milliseconds since the testbed started: the noisy neighbour's clock. Default: since now. */
  elapsedMs?: () => number;
  /**
   * Where the replicas tell each other that a tied copy started: a request with a tie id whose
   * twin started elsewhere first is dropped (TIE_DROPPED_CODE). Without it, tie ids are ignored.
   */
  ties?: TieBoard;
  /** The service slots to use, e.g. those of the profile this one replaces; made when absent. */
  slots?: ServiceSlots;
  /** Told when a request begins service, and when a tied copy is dropped. */
  counters?: { served(): void; tieDropped(): void };
}

const noop = () => {};

const TIE_DROPPED: InterceptDecision = {
  fault: {
    status: TIE_DROPPED_STATUS,
    code: TIE_DROPPED_CODE,
    message: "A tied copy of this request started on another replica.",
  },
};

/**
 * Replica r's seed. Mixed rather than `seed + r`, so that seed 1's second replica does not
 * replay seed 2's first.
 */
export function replicaSeed(seed: number, replica: number): number {
  return (seed + Math.imul(replica, 0x9e3779b9)) >>> 0;
}

export function createLatencyProfileInterceptor(
  options: LatencyProfileInterceptorOptions,
): RequestInterceptor {
  const { profile, replica, ties, counters } = options;
  const random = createRandom(replicaSeed(options.seed, replica));
  const slots =
    profile.queue === undefined
      ? undefined
      : (options.slots ?? createServiceSlots(profile.queue.slots));
  const startedAt = performance.now();
  const elapsedMs = options.elapsedMs ?? (() => performance.now() - startedAt);
  // The neighbour's clock is read when service starts, which after a wait in line is later
  // than arrival; the draws themselves happen at arrival, in request order.
  const serviceMs = (plan: Extract<RequestPlan, { kind: "serve" }>) =>
    plan.serviceMs * noisyNeighbourFactor(profile, replica, elapsedMs()) + plan.stallMs;

  return (request) => {
    if (!PROFILED_OPERATIONS.has(request.operation)) {
      counters?.served();
      return undefined;
    }
    const plan = planRequest(profile, random);
    if (plan.kind === "fault") return { fault: plan.fault };
    const corruptBody = plan.corrupt && BODY_PROFILED_OPERATIONS.has(request.operation);
    const corruption = corruptBody ? { corruptBody } : {};
    const tie = ties !== undefined && request.tieId !== null ? { ties, id: request.tieId } : null;
    // Service starts now (no queue) or once a slot is free; a tied copy starts only if its twin
    // has not started elsewhere.
    const startService = (): boolean => {
      if (tie !== null && !tie.ties.start(tie.id, replica)) {
        counters?.tieDropped();
        return false;
      }
      counters?.served();
      return true;
    };
    if (slots === undefined) {
      return startService() ? { delayMs: serviceMs(plan), ...corruption } : TIE_DROPPED;
    }
    return (async () => {
      // A tied copy leaves the line when its twin starts elsewhere, as when its client leaves.
      const dropped = tie ? new AbortController() : null;
      const leave = tie && dropped ? tie.ties.wait(tie.id, replica, () => dropped.abort()) : noop;
      const signal = dropped ? AbortSignal.any([request.signal, dropped.signal]) : request.signal;
      const acquired = await slots.acquire(signal);
      leave();
      if (!acquired) {
        if (dropped?.signal.aborted && !request.signal.aborted) {
          counters?.tieDropped();
          return TIE_DROPPED;
        }
        // On abort, answering with no decision lets the handler see the aborted signal and drop
        // the request as client-gone.
        return undefined;
      }
      if (!startService()) {
        slots.release();
        return TIE_DROPPED;
      }
      try {
        const delayMs = serviceMs(plan);
        if (delayMs > 0) await sleepAtLeast(delayMs, request.signal);
      } catch {
        // The client left while being served: the slot is freed below all the same.
      } finally {
        slots.release();
      }
      return corruptBody ? corruption : undefined;
    })();
  };
}
