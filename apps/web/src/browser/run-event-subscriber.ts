import type { RunEvent, RunEventListener, SubscribeRunEvents } from "@taillab/api";

/** What a socket reports; whoever opens it (browser WebSocket, `ws` in tests) wires these up. */
export interface SocketHandlers {
  onOpen(): void;
  onMessage(data: unknown): void;
  onClose(): void;
}

export type OpenSocket = (handlers: SocketHandlers) => { close(): void };

export interface ReconnectDelays {
  firstMs: number;
  maxMs: number;
}

const DEFAULT_DELAYS: ReconnectDelays = { firstMs: 250, maxMs: 5000 };

/**
 * Run events for any number of listeners over one socket: opened with the first listener,
 * closed with the last, and reopened after a drop with a doubling delay (reset once a socket
 * opens) so a restarting host is found again without a storm of attempts.
 */
export function createRunEventSubscriber(
  openSocket: OpenSocket,
  delays: ReconnectDelays = DEFAULT_DELAYS,
): SubscribeRunEvents {
  const listeners = new Set<{ listener: RunEventListener }>();
  let socket: { close(): void } | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let delayMs = delays.firstMs;

  function connect(): void {
    const current = openSocket({
      onOpen() {
        delayMs = delays.firstMs;
      },
      onMessage(data) {
        if (typeof data === "string") deliver(JSON.parse(data) as RunEvent);
      },
      onClose() {
        // A socket closed on purpose (last listener gone) is already forgotten.
        if (socket !== current) return;
        socket = null;
        if (listeners.size > 0) scheduleReconnect();
      },
    });
    socket = current;
  }

  function scheduleReconnect(): void {
    retry = setTimeout(() => {
      retry = null;
      connect();
    }, delayMs);
    delayMs = Math.min(delayMs * 2, delays.maxMs);
  }

  function deliver(event: RunEvent): void {
    for (const entry of [...listeners]) {
      try {
        entry.listener(event);
      } catch (error) {
        // One broken listener must not starve the others.
        console.error("TailLab run event listener failed:", error);
      }
    }
  }

  function disconnect(): void {
    if (retry !== null) clearTimeout(retry);
    retry = null;
    const current = socket;
    socket = null;
    current?.close();
    delayMs = delays.firstMs;
  }

  return (listener) => {
    // An entry per subscription, so the same function subscribed twice is called twice.
    const entry = { listener };
    listeners.add(entry);
    if (socket === null && retry === null) connect();
    return () => {
      if (!listeners.delete(entry)) return;
      if (listeners.size === 0) disconnect();
    };
  };
}
