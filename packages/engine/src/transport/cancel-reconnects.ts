import { subscribe } from "node:diagnostics_channel";
import { readSync } from "node:fs";
import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { buildConnector } from "undici";
import type { MicrosClock } from "./object-transport.ts";

/**
 * Hands the socket a request is written on to whoever asked for it in that request's
 * onRequestStart: undici calls onRequestStart and then publishes `undici:client:sendHeaders`
 * with the socket in the same synchronous step (client-h1 writeH1), so nothing can come between.
 */
let waitingForSocket: SocketUser | null = null;
/** The new connections of the pool the waiting request is on (CancelReconnects.newConnectionOf). */
let waitingPoolConnections: WeakMap<Socket, NewConnection> | null = null;
let subscribed = false;

function onSendHeaders(message: unknown): void {
  const user = waitingForSocket;
  const newConnections = waitingPoolConnections;
  waitingForSocket = null;
  waitingPoolConnections = null;
  if (!user || !newConnections) return;
  const { socket } = message as { socket: Socket };
  const newConnection = newConnections.get(socket);
  newConnections.delete(socket);
  user.connected(socket, newConnection);
}

/** A request's side that takes the socket it is written on (a WireTiming). */
export interface SocketUser {
  connected(socket: Socket, newConnection: NewConnection | undefined): void;
}

/** A connection the pool opened, as the first request written on it sees it. */
export interface NewConnection {
  /** Its connect time: TCP, and TLS over https. */
  connectUs: number;
  /** Opened to replace a connection closed by a cancelled request. */
  replacesCancelled: boolean;
}

/**
 * The pool's new connections, timed, and among them the reconnects caused by cancellation.
 * The first request written on a new connection waited for it to connect, so it pays its connect
 * time. undici closes the connection of a request cancelled while on the wire (it cannot know
 * what is still coming), so the next request on that slot first waits for a new connection: every
 * connection the pool opens while some closed by a cancel are not yet replaced is such a
 * replacement.
 */
export class CancelReconnects {
  private unreplaced = 0;
  private readonly newConnectionOf = new WeakMap<Socket, NewConnection>();
  private readonly clock: MicrosClock;

  constructor(clock: MicrosClock) {
    this.clock = clock;
    if (!subscribed) {
      subscribe("undici:client:sendHeaders", onSendHeaders);
      subscribed = true;
    }
  }

  /** The pool's connector (undici's own, with these options), timing each connection. */
  connector(options: buildConnector.BuildOptions): buildConnector.connector {
    const connect = buildConnector(options);
    return (target, callback) => {
      const startUs = this.clock();
      connect(target, (...result) => {
        const [error, socket] = result;
        if (error === null) {
          const replacesCancelled = this.unreplaced > 0;
          if (replacesCancelled) this.unreplaced -= 1;
          this.newConnectionOf.set(socket, {
            connectUs: this.clock() - startUs,
            replacesCancelled,
          });
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
   * Call from onRequestStart: `user` gets the socket the request is written on, and the new
   * connection it waited for when it is the first request on it.
   */
  requestStarting(user: SocketUser): void {
    waitingForSocket = user;
    waitingPoolConnections = this.newConnectionOf;
  }
}

/**
 * Bytes a socket has moved both ways, as far as the kernel has them: what is still queued in
 * Node to be written (`writableLength`) has not left.
 */
export function socketBytes(socket: Socket): number {
  return socket.bytesRead + socket.bytesWritten - socket.writableLength;
}

const unreadScratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Reads and drops what the kernel has received for a socket that is about to be closed, and
 * returns how many bytes that was. An answer that reached the machine but that the event loop had
 * not read yet (a tied loser's whole body, often: both answers land in the same turn of the loop)
 * crossed the wire; closing the socket throws it away unseen, so it is counted first. Node offers
 * no public way to ask the kernel for a socket's receive queue: this reads the descriptor under
 * the handle directly, which is safe only because the socket is closed right after. Where the
 * handle shows no descriptor (Windows, TLS) nothing is read: the count is what the loop read.
 */
export function drainUnread(socket: Socket): number {
  const fd = (socket as unknown as { _handle?: { fd?: number } | null })._handle?.fd;
  if (typeof fd !== "number" || fd < 0) return 0;
  let drained = 0;
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, unreadScratch);
    } catch {
      // EAGAIN: the receive queue is empty.
      return drained;
    }
    drained += read;
    // Short of a full read the queue was empty: what arrives from here on is not chased.
    if (read < unreadScratch.length) return drained;
  }
}

/** Closes a connection with a TCP reset; a TLS connection (whose handle cannot) is closed. */
export function resetConnection(socket: Socket): void {
  if (socket instanceof TLSSocket) socket.destroy();
  else socket.resetAndDestroy();
}
