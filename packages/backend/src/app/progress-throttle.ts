/**
 * Passes on at most one value per `intervalMs`, always the latest: a value that comes too soon
 * is held and sent when the interval is up, unless a newer one replaces it first. So a host gets
 * at most ~10 updates a second however fast they come, and the last one is never lost.
 */
export interface Throttle<T> {
  push(value: T): void;
  /** Sends a held value as soon as the interval allows (e.g. before a run's last event). */
  flush(): Promise<void>;
  /** Drops a held value. */
  cancel(): void;
}

export function createThrottle<T>(
  intervalMs: number,
  send: (value: T) => void,
  now: () => number = () => performance.now(),
): Throttle<T> {
  let lastSentMs = -Infinity;
  let held: { value: T } | null = null;
  let timer: NodeJS.Timeout | null = null;
  const sendHeld = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!held) return;
    const { value } = held;
    held = null;
    send(value);
    // From the end of a send: what a receiver sees is spaced out even when sending takes time.
    lastSentMs = now();
  };
  return {
    push(value) {
      held = { value };
      const waitMs = lastSentMs + intervalMs - now();
      if (waitMs <= 0) sendHeld();
      else timer ??= setTimeout(sendHeld, waitMs);
    },
    async flush() {
      if (!held) return;
      const waitMs = lastSentMs + intervalMs - now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      sendHeld();
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      held = null;
    },
  };
}
