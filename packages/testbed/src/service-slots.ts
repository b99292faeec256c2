/**
 * A replica's service slots: a counting semaphore served first come, first served, whose waiters
 * leave the line when their client disconnects. With c slots and exponential service times the
 * replica behaves as an M/M/c queue: waiting time grows with load, sharply near capacity.
 */
export interface ServiceSlots {
  /**
   * Resolves true once the caller holds a slot (it must call release() exactly once), or false
   * if `signal` aborted first, in which case it holds nothing.
   */
  acquire(signal: AbortSignal): Promise<boolean>;
  release(): void;
  /** Slots held right now. */
  readonly busy: number;
  /** Requests waiting for a slot right now. */
  readonly waiting: number;
}

interface Waiter {
  grant(): void;
}

export function createServiceSlots(slots: number): ServiceSlots {
  let busy = 0;
  // A Set keeps insertion order (FIFO) and lets an aborted waiter leave from the middle in O(1).
  const line = new Set<Waiter>();

  return {
    acquire(signal) {
      if (signal.aborted) return Promise.resolve(false);
      if (busy < slots && line.size === 0) {
        busy++;
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        const onAbort = () => {
          line.delete(waiter);
          resolve(false);
        };
        const waiter: Waiter = {
          grant() {
            signal.removeEventListener("abort", onAbort);
            resolve(true);
          },
        };
        line.add(waiter);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    release() {
      // The slot passes straight to the next in line, so a newcomer cannot overtake it.
      const next = line.values().next();
      if (next.done) {
        busy--;
        return;
      }
      line.delete(next.value);
      next.value.grant();
    },
    get busy() {
      return busy;
    },
    get waiting() {
      return line.size;
    },
  };
}
