import { setTimeout as sleep } from "node:timers/promises";

/**
 * Waits until `delayMs` have passed on performance.now(), the clock the service-time stamp is
 * read from. A timer alone can fire early by as much as the event loop's cached clock lags behind
 * (the process busy, or not running at all on a loaded machine, between the loop's last look at
 * the clock and the request's arrival): an injected 3.7 ms then served 2.2 ms. Rejects with the
 * signal's AbortError when it aborts, as timers/promises' sleep does.
 */
export async function sleepAtLeast(delayMs: number, signal?: AbortSignal): Promise<void> {
  const untilMs = performance.now() + delayMs;
  for (let leftMs = delayMs; leftMs > 0; leftMs = untilMs - performance.now()) {
    await sleep(leftMs, undefined, signal ? { signal } : {});
  }
}
