/** The hook for latency profiles and fault injection: one call per request, before it runs. */
import type { S3Operation } from "./operations/registry.ts";
import { sleepAtLeast } from "./sleep-at-least.ts";

export interface InterceptedRequest {
  method: string;
  operation: S3Operation;
  bucket: string | null;
  key: string | null;
  /** Aborts when the client disconnects, e.g. a hedged request whose twin won. */
  signal: AbortSignal;
  /** The tied request this is a copy of (TIE_ID_HEADER), or null. */
  tieId: string | null;
}

/** An S3 XML error with this status and code, or a TCP reset instead of any response. */
export type InjectedFault =
  { status: number; code: string; message: string } | { resetConnection: true };

/**
 * Wait `delayMs` first (cut short if the client leaves), then fail with `fault` or run the
 * request; `corruptBody` flips the first byte of the object a GET returns (a server handing back
 * wrong bytes with the right size, which only a content check catches).
 */
export type InterceptDecision = void | {
  delayMs?: number;
  fault?: InjectedFault;
  corruptBody?: boolean;
};

/** Called after routing and authentication; it may keep state, e.g. to fail every tenth request. */
export type RequestInterceptor = (
  request: InterceptedRequest,
) => InterceptDecision | Promise<InterceptDecision>;

/**
 * Asks the interceptor and waits out its delay. Then the request runs, fails with the fault, or
 * is dropped because its client left during the delay and nobody is waiting for an answer.
 */
export async function intercept(
  interceptor: RequestInterceptor,
  request: InterceptedRequest,
): Promise<"run" | "run-corrupted" | "client-gone" | InjectedFault> {
  const decision = await interceptor(request);
  const delayMs = decision?.delayMs ?? 0;
  if (delayMs > 0) {
    try {
      await sleepAtLeast(delayMs, request.signal);
    } catch {
      return "client-gone";
    }
  }
  if (request.signal.aborted) return "client-gone";
  if (decision?.fault) return decision.fault;
  return decision?.corruptBody ? "run-corrupted" : "run";
}
