import { BroadcastChannel } from "node:worker_threads";

/**
 * The link between allocation-tap.ts, preloaded into every thread, and the allocation bench: the
 * bench asks ("read"), and each thread answers with the bytes its heap allocated so far and its
 * garbage collections.
 */
export const ALLOCATION_CHANNEL = "taillab-bench:allocation";

export interface AllocationReading {
  threadId: number;
  allocatedBytes: number;
  /** Garbage collections so far. */
  collections: number;
}

/** Each thread's reading, by thread id, once `threads` threads have answered. */
export async function readAllocations(threads: number): Promise<Map<number, AllocationReading>> {
  const channel = new BroadcastChannel(ALLOCATION_CHANNEL);
  const readings = new Map<number, AllocationReading>();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${readings.size} of ${threads} threads answered the read`)),
        10_000,
      );
      channel.onmessage = (event) => {
        const reading = (event as { data: AllocationReading | "read" }).data;
        if (reading === "read") return;
        readings.set(reading.threadId, reading);
        if (readings.size === threads) {
          clearTimeout(timer);
          resolve();
        }
      };
      channel.postMessage("read");
    });
  } finally {
    channel.close();
  }
  return readings;
}
