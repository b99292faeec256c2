import type { Socket } from "node:net";
import type { Dispatcher } from "undici";
import {
  drainUnread,
  resetConnection,
  socketBytes,
  type CancelReconnects,
  type NewConnection,
  type SocketUser,
} from "./cancel-reconnects.ts";
import type { MicrosClock, RequestTimeline } from "./object-transport.ts";

/**
 * Stamps the steps of one request as undici reports them to a dispatch handler:
 * - sent: onRequestStart, which undici calls when it writes the request on a connection, in the
 *   same step as it publishes `undici:client:sendHeaders` on its diagnostics channel (after
 *   the request waited for a free connection, and after connecting);
 * - connect: the connect time of the new connection it was the first request on, if it was;
 * - body sent: the whole request, body included, on the wire (see requestSent);
 * - headers: onResponseStart; first byte: the first onResponseData.
 * Both transports use it: the fast path from its own handler, the SDK path through
 * `timingInterceptor` around the handler undici's request API makes.
 */
export class WireTiming implements SocketUser {
  readonly readyUs: number;
  private sentUs = -1;
  private requestWritten = false;
  private hasBody = false;
  private bodySentUs = -1;
  private headersUs = -1;
  private firstByteUs = -1;
  private readonly clock: MicrosClock;
  private socket: Socket | null = null;
  private socketBytesAtStart = 0;
  private newConnection: NewConnection | undefined;
  /** Cancelled on the wire: the bytes its connection moved both ways while it was on it. */
  cancelledWireBytes: number | null = null;
  /** Bytes of the answer's body received so far, an error document's included. */
  receivedBodyBytes = 0;

  constructor(clock: MicrosClock) {
    this.clock = clock;
    this.readyUs = clock();
  }

  get sent(): boolean {
    return this.sentUs >= 0;
  }

  /** The whole request, body included, was handed to the connection (undici's onRequestSent). */
  get bodySent(): boolean {
    return this.requestWritten;
  }

  /** undici writes the request on a connection; `hasBody`: a body follows the headers. */
  requestStarted(hasBody: boolean): void {
    this.sentUs = this.clock();
    this.hasBody = hasBody;
  }

  /** The connection undici wrote the request on, and whether the request waited for it to open. */
  connected(socket: Socket, newConnection: NewConnection | undefined): void {
    this.socket = socket;
    this.socketBytesAtStart = socketBytes(socket);
    this.newConnection = newConnection;
  }

  /**
   * Cancelled on the wire: the connection is given up. Its cost is what it moved so far, the
   * answer bytes that reached the machine but were not read yet included. It is then reset rather
   * than closed (undici's own close finds it closed): a plain close sends FIN, and a server goes
   * on sending its answer into a socket that only throws it away, bytes that cross the wire
   * uncounted; a reset stops it at once.
   */
  cancelledOnWire(): void {
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    const unread = drainUnread(socket);
    this.cancelledWireBytes = socketBytes(socket) + unread - this.socketBytesAtStart;
    resetConnection(socket);
  }

  /**
   * undici calls onRequestSent once it has handed the whole body to the socket, in the same step
   * for a body in memory: the body is on the wire once the socket's own queue has drained into
   * the kernel (as socketBytes counts it).
   */
  requestSent(): void {
    this.requestWritten = true;
    // Without a body the request went out with its headers: it has no upload, whatever the clock
    // reads by now (a thread descheduled between undici's two callbacks would make one up).
    if (!this.hasBody) {
      this.bodySentUs = this.sentUs;
      return;
    }
    const socket = this.socket;
    if (socket?.writableNeedDrain) socket.once("drain", () => (this.bodySentUs = this.clock()));
    else this.bodySentUs = this.clock();
  }

  responseStarted(): void {
    this.headersUs = this.clock();
  }

  /** A chunk of `chunkBytes` of the answer's body arrived. */
  bodyData(chunkBytes: number): void {
    if (this.firstByteUs < 0) this.firstByteUs = this.clock();
    this.receivedBodyBytes += chunkBytes;
  }

  /** The timeline as of now (the end); steps that never happened take the next one's time. */
  finish(): RequestTimeline {
    const endUs = this.clock();
    const firstByteUs =
      this.firstByteUs >= 0 ? this.firstByteUs : this.headersUs >= 0 ? this.headersUs : endUs;
    const headersUs = this.headersUs >= 0 ? this.headersUs : firstByteUs;
    const sentUs = this.sentUs >= 0 ? this.sentUs : headersUs;
    const timeline: RequestTimeline = {
      readyUs: this.readyUs,
      sentUs,
      headersUs,
      firstByteUs,
      endUs,
    };
    // A server may answer before the body is all written (an early refusal).
    if (this.bodySentUs >= 0)
      timeline.bodySentUs = Math.max(sentUs, Math.min(this.bodySentUs, headersUs));
    if (this.newConnection) {
      timeline.connectUs = this.newConnection.connectUs;
      if (this.newConnection.replacesCancelled) timeline.reconnectUs = this.newConnection.connectUs;
    }
    return timeline;
  }
}

/** Dispatch options that carry a WireTiming for `timingInterceptor`. */
export interface TimedDispatchOptions extends Dispatcher.DispatchOptions {
  timing?: WireTiming;
}

/**
 * An undici interceptor that stamps a request's steps on the WireTiming its dispatch options
 * carry (requests without one pass through untouched), for dispatchers whose handler is not ours:
 * `pool.compose(timingInterceptor())` under the SDK's HTTP handler.
 */
export function timingInterceptor(
  reconnects: CancelReconnects,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const timing = (options as TimedDispatchOptions).timing;
    if (!timing) return dispatch(options, handler);
    // undici's handlers are class instances: their methods are called on them, not copied.
    return dispatch(options, {
      onRequestStart: (controller, context) => {
        timing.requestStarted(options.body != null);
        reconnects.requestStarting(timing);
        handler.onRequestStart?.(controller, context);
      },
      onRequestSent: () => {
        timing.requestSent();
        handler.onRequestSent?.();
      },
      onRequestUpgrade: (controller, statusCode, headers, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) => {
        timing.responseStarted();
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => {
        timing.bodyData(chunk.length);
        handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => {
        // The caller's signal (not the request timeout, nor a failure) cut a request on the wire.
        if (timing.sent && error.name === "AbortError") {
          timing.cancelledOnWire();
          reconnects.closedByCancel();
        }
        handler.onResponseError?.(controller, error);
      },
    });
  };
}
