/**
 * Passes on at most one value per `intervalMs`, always the latest: a value that comes too soon
 * is held and sent when the interval is up, unless a newer one replaces it first. So a host gets
 * at most one update an interval however fast they come, and the last one is never lost.
 */
export interface Throttle<T> {
  push(value: T): void;
  /**
   * The held value (passed through `settle` first) may no longer be replaced: values pushed
   * after it are sent after it, still one per interval. For a value that closes something, such
   * as a phase's last figures before the next phase starts.
   */
  keep(settle?: (value: T) => T): void;
  /** Sends every held value as soon as the interval allows (e.g. before a run's last event). */
  flush(): Promise<void>;
  /** Drops the held values. */
  cancel(): void;
}

export function createThrottle<T>(
  intervalMs: number,
  send: (value: T) => void,
  now: () => number = () => performance.now(),
): Throttle<T> {
  let lastSentMs = -Infinity;
  const kept: T[] = [];
  let held: { value: T } | null = null;
  let timer: NodeJS.Timeout | null = null;
  const waiting = () => kept.length > 0 || held !== null;
  const sendNext = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const next = kept.length > 0 ? { value: kept.shift() as T } : held;
    if (!next) return;
    if (next === held) held = null;
    send(next.value);
    // From the end of a send: what a receiver sees is spaced out even when sending takes time.
    lastSentMs = now();
    if (waiting()) timer = setTimeout(sendNext, intervalMs);
  };
  return {
    push(value) {
      held = { value };
      const waitMs = lastSentMs + intervalMs - now();
      if (waitMs <= 0 && kept.length === 0) sendNext();
      else timer ??= setTimeout(sendNext, Math.max(0, waitMs));
    },
    keep(settle = (value) => value) {
      if (!held) return;
      kept.push(settle(held.value));
      held = null;
    },
    async flush() {
      while (waiting()) {
        const waitMs = lastSentMs + intervalMs - now();
        // The timer may send while this waits: the interval is measured again after.
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        else sendNext();
      }
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      kept.length = 0;
      held = null;
    },
  };
}
