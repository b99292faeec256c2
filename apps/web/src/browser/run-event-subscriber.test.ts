import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunEvent } from "@taillab/api";
import { createRunEventSubscriber, type SocketHandlers } from "./run-event-subscriber.ts";

const NOTICE: RunEvent = { type: "notice", runId: "r1", message: "hello" };

/** Sockets the subscriber opened, each with its handlers and whether it was closed. */
function fakeSockets() {
  const opened: { handlers: SocketHandlers; closed: boolean }[] = [];
  const open = (handlers: SocketHandlers) => {
    const socket = { handlers, closed: false, close: () => (socket.closed = true) };
    opened.push(socket);
    return socket;
  };
  return { opened, open };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("createRunEventSubscriber", () => {
  it("shares one socket among listeners and closes it with the last", () => {
    const sockets = fakeSockets();
    const subscribe = createRunEventSubscriber(sockets.open);
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = subscribe(first);
    const stopSecond = subscribe(second);
    expect(sockets.opened).toHaveLength(1);

    sockets.opened[0]!.handlers.onMessage(JSON.stringify(NOTICE));
    expect(first).toHaveBeenCalledWith(NOTICE);
    expect(second).toHaveBeenCalledWith(NOTICE);

    stopFirst();
    expect(sockets.opened[0]!.closed).toBe(false);
    stopSecond();
    expect(sockets.opened[0]!.closed).toBe(true);
    // The close the subscriber asked for does not bring a reconnection.
    sockets.opened[0]!.handlers.onClose();
    vi.advanceTimersByTime(60_000);
    expect(sockets.opened).toHaveLength(1);
  });

  it("reconnects after a drop with a doubling delay, reset once a socket opens", () => {
    const sockets = fakeSockets();
    const subscribe = createRunEventSubscriber(sockets.open, { firstMs: 100, maxMs: 300 });
    subscribe(vi.fn());
    const drop = () => sockets.opened.at(-1)!.handlers.onClose();

    drop();
    vi.advanceTimersByTime(99);
    expect(sockets.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets.opened).toHaveLength(2);
    drop();
    vi.advanceTimersByTime(199);
    expect(sockets.opened).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets.opened).toHaveLength(3);
    drop();
    vi.advanceTimersByTime(300); // capped at maxMs
    expect(sockets.opened).toHaveLength(4);

    sockets.opened[3]!.handlers.onOpen();
    drop();
    vi.advanceTimersByTime(100);
    expect(sockets.opened).toHaveLength(5);
  });

  it("stops reconnecting when the last listener leaves during the wait", () => {
    const sockets = fakeSockets();
    const unsubscribe = createRunEventSubscriber(sockets.open)(vi.fn());
    sockets.opened[0]!.handlers.onClose();
    unsubscribe();
    vi.advanceTimersByTime(60_000);
    expect(sockets.opened).toHaveLength(1);
  });

  it("keeps delivering to the other listeners when one throws", () => {
    const sockets = fakeSockets();
    const subscribe = createRunEventSubscriber(sockets.open);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const healthy = vi.fn();
    subscribe(() => {
      throw new Error("broken listener");
    });
    subscribe(healthy);
    sockets.opened[0]!.handlers.onMessage(JSON.stringify(NOTICE));
    expect(healthy).toHaveBeenCalledWith(NOTICE);
    expect(error).toHaveBeenCalledOnce();
  });
});
