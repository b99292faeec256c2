/**
 * Callbacks to run when a signal aborts, with one listener on the signal however many wait on it.
 * Every request of a normal run waits on the run's one stop signal; an EventTarget listener added
 * and removed per request cost more than the rest of the request's own bookkeeping.
 */
const callbacksOf = new WeakMap<AbortSignal, Set<() => void>>();

/** Runs `onAbort` once `signal` aborts; returns the way to take it back. */
export function onAbortOf(signal: AbortSignal, onAbort: () => void): () => void {
  let callbacks = callbacksOf.get(signal);
  if (!callbacks) {
    const waiting = new Set<() => void>();
    callbacks = waiting;
    callbacksOf.set(signal, waiting);
    signal.addEventListener(
      "abort",
      () => {
        for (const callback of waiting) callback();
        waiting.clear();
      },
      { once: true },
    );
  }
  const waiting = callbacks;
  waiting.add(onAbort);
  return () => waiting.delete(onAbort);
}
