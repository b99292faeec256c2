import { BroadcastChannel } from "node:worker_threads";

/**
 * The link between service-time-tap.ts, preloaded into TailLab's client worker threads, and the
 * bench's main thread: the testbed's service-time stamp of each response, keyed by request.
 */
const CHANNEL_NAME = "taillab-bench:service-time";

export interface ServiceTimeStamp {
  method: string;
  /** The request path as sent: /bucket/encoded-key. */
  path: string;
  serviceTimeUs: number;
}

/** Worker side: sends one batch of stamps. */
export function openStampSender(): { send(batch: ServiceTimeStamp[]): void } {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  // The tap must never keep a worker alive.
  channel.unref();
  return { send: (batch) => channel.postMessage(batch) };
}

export interface ServiceTimeCollector {
  /** The stamp of the response to `method path`, if it has arrived. */
  stampOf(method: string, path: string): number | undefined;
  /** Resolves once `count` stamps have arrived, or after `timeoutMs` with what there is. */
  waitForStamps(count: number, timeoutMs: number): Promise<void>;
  close(): void;
}

/** Main-thread side: gathers every stamp the taps send until closed. */
export function collectServiceTimes(): ServiceTimeCollector {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  const stamps = new Map<string, number>();
  const stampKey = (method: string, path: string) => `${method} ${path}`;
  let onArrival = () => {};
  channel.onmessage = (event) => {
    for (const stamp of (event as { data: ServiceTimeStamp[] }).data) {
      stamps.set(stampKey(stamp.method, stamp.path), stamp.serviceTimeUs);
    }
    onArrival();
  };
  return {
    stampOf: (method, path) => stamps.get(stampKey(method, path)),
    waitForStamps: (count, timeoutMs) =>
      new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          onArrival = () => {};
          resolve();
        };
        const timer = setTimeout(finish, timeoutMs);
        onArrival = () => {
          if (stamps.size >= count) finish();
        };
        onArrival();
      }),
    close: () => channel.close(),
  };
}
