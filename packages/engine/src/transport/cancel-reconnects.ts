import { subscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { buildConnector } from "undici";
import type { MicrosClock } from "./object-transport.ts";

/**
 * Hands the socket a request is written on to whoever asked for it in that request's
 * onRequestStart: undici calls onRequestStart and then publishes `undici:client:sendHeaders`
 * with the socket in the same synchronous step (client-h1 writeH1), so nothing can come between.
 */
let waitingForSocket: ((socket: Socket) => void) | null = null;
let subscribed = false;

function onSendHeaders(message: unknown): void {
  const take = waitingForSocket;
  waitingForSocket = null;
  take?.((message as { socket: Socket }).socket);
}

/**
 * Reconnects caused by cancellation, for one pool. undici closes the connection of a request
 * cancelled while on the wire (it cannot know what is still coming), so the next request on that
 * slot first waits for a new connection: TCP, and TLS over https. Every connection the pool opens
 * while some closed by a cancel are not yet replaced is such a replacement; its connect time is
 * paid by the first request written on it.
 */
export class CancelReconnects {
  private unreplaced = 0;
  private readonly connectUsOf = new WeakMap<Socket, number>();
  private readonly clock: MicrosClock;

  constructor(clock: MicrosClock) {
    this.clock = clock;
    if (!subscribed) {
      subscribe("undici:client:sendHeaders", onSendHeaders);
      subscribed = true;
    }
  }

  /** The pool's connector (undici's own, with these options), timing the replacements. */
  connector(options: buildConnector.BuildOptions): buildConnector.connector {
    const connect = buildConnector(options);
    return (target, callback) => {
      const startUs = this.clock();
      connect(target, (...result) => {
        const [error, socket] = result;
        if (error === null && this.unreplaced > 0) {
          this.unreplaced -= 1;
          this.connectUsOf.set(socket, this.clock() - startUs);
        }
        callback(...result);
      });
    };
  }

  /** A request on the wire was cancelled: undici closes its connection. */
  closedByCancel(): void {
    this.unreplaced += 1;
  }

  /**
   * Call from onRequestStart: `onConnection` gets the socket the request is written on, and the
   * connect time when the request is the first on a connection that replaced one closed by a
   * cancel.
   */
  requestStarting(onConnection: (socket: Socket, reconnectUs: number | undefined) => void): void {
    waitingForSocket = (socket) => {
      const reconnectUs = this.connectUsOf.get(socket);
      this.connectUsOf.delete(socket);
      onConnection(socket, reconnectUs);
    };
  }
}

/**
 * Bytes a socket has moved both ways, as far as the kernel has them: what is still queued in
 * Node to be written (`writableLength`) has not left.
 */
export function socketBytes(socket: Socket): number {
  return socket.bytesRead + socket.bytesWritten - socket.writableLength;
}
