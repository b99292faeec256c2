/**
 * A latency profile as a RequestInterceptor for one replica: its own random stream, its own
 * service slots. Only object data requests are shaped (see PROFILED_OPERATIONS).
 */
import type { LatencyProfile } from "@taillab/api";
import { createRandom } from "@taillab/core";
import { noisyNeighbourFactor, planRequest, type RequestPlan } from "./latency-sampler.ts";
import type { RequestInterceptor } from "./request-interceptor.ts";
import type { S3Operation } from "./s3-route.ts";
import { createServiceSlots } from "./service-slots.ts";
import { sleepAtLeast } from "./sleep-at-least.ts";

/**
 * The data plane: what a benchmark measures, the requests that read, write or delete an
 * object's data. Bucket-level requests (ListObjects, HeadBucket, CreateBucket, DeleteObjects…)
 * are a run's preflight, setup and cleanup; slowing or failing them would make a run fail its
 * preflight at random rather than measure anything. Of a multipart upload, the parts and the
 * completion (which assembles the object) are data; creating, listing and aborting uploads is
 * bookkeeping, like the bucket-level requests.
 */
export const PROFILED_OPERATIONS: ReadonlySet<S3Operation> = new Set<S3Operation>([
  "PutObject",
  "GetObject",
  "HeadObject",
  "DeleteObject",
  "CopyObject",
  "UploadPart",
  "CompleteMultipartUpload",
]);

export interface LatencyProfileInterceptorOptions {
  /** Validated, e.g. by resolveLatencyProfile. */
  profile: LatencyProfile;
  seed: number;
  /** This replica's index: picks its random stream and whether it is the noisy neighbour. */
  replica: number;
  /** Milliseconds since the testbed started: the noisy neighbour's clock. Default: since now. */
  elapsedMs?: () => number;
}

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
  const { profile, replica } = options;
  const random = createRandom(replicaSeed(options.seed, replica));
  const slots = profile.queue === undefined ? undefined : createServiceSlots(profile.queue.slots);
  const startedAt = performance.now();
  const elapsedMs = options.elapsedMs ?? (() => performance.now() - startedAt);
  // The neighbour's clock is read when service starts, which after a wait in line is later
  // than arrival; the draws themselves happen at arrival, in request order.
  const serviceMs = (plan: Extract<RequestPlan, { kind: "serve" }>) =>
    plan.serviceMs * noisyNeighbourFactor(profile, replica, elapsedMs()) + plan.stallMs;

  return (request) => {
    if (!PROFILED_OPERATIONS.has(request.operation)) return undefined;
    const plan = planRequest(profile, random);
    if (plan.kind === "fault") return { fault: plan.fault };
    const corruptBody = plan.corrupt && request.operation === "GetObject";
    const corruption = corruptBody ? { corruptBody } : {};
    if (slots === undefined) return { delayMs: serviceMs(plan), ...corruption };
    return (async () => {
      // On abort, answering with no decision lets the handler see the aborted signal and drop
      // the request as client-gone.
      if (!(await slots.acquire(request.signal))) return undefined;
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
