import { ABORTED_ERROR, RESPONSE_TOO_LARGE_ERROR, TIMEOUT_ERROR } from "@taillab/api";
import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { onAbortOf } from "./abort-callbacks.ts";
import type { CancelReconnects } from "./cancel-reconnects.ts";
import type {
  MicrosClock,
  RequestOptions,
  RequestOutcome,
  RequestTimeline,
} from "./object-transport.ts";
import type { Deadlined, RequestDeadlines } from "./request-deadlines.ts";
import { ANSWER_LIMIT_BYTES } from "./response-body.ts";
import { errorCodeFromException } from "./s3-error-code.ts";
import { WireTiming } from "./wire-timing.ts";

/** Error bodies are small XML documents; anything past this is read and dropped. */
const ERROR_BODY_LIMIT_BYTES = 64 * 1024;

const NO_HEADERS: IncomingHttpHeaders = Object.freeze({});
/** The body of an answer without one (a PUT's, a DELETE's): one for all, never written to. */
const NO_BODY = Buffer.alloc(0);

/** Takes a 2xx answer's body chunk by chunk instead of having it collected. */
export interface BodyReader {
  onChunk(chunk: Buffer): void;
}

/** What the requests of one fast transport share. */
export interface WireLine {
  clock: MicrosClock;
  reconnects: CancelReconnects;
  deadlines: RequestDeadlines;
  timeoutMs: number;
}

/**
 * One request on the wire, as the fast transport's undici dispatch handler: no response stream
 * is made, the body arrives as chunks (to `bodyReader` for a 2xx answer when there is one, else
 * collected whole, an error document up to ERROR_BODY_LIMIT_BYTES; any answer but a streamed one
 * is cut off past ANSWER_LIMIT_BYTES as RESPONSE_TOO_LARGE_ERROR), and every step is stamped.
 * Failures come back as a code, never thrown. A stop or cancel settles at once, even for a
 * request still waiting for a connection (undici then drops it when its turn comes); so does the
 * request timeout, counted from here, which bounds the whole attempt: a hung server, or one that
 * drips its answer, cannot hold it longer.
 *
 * One object per request is its handler, its state and its answer: the closures, the timer and
 * the answer object each request used to make came to a fifth of the bytes a GET allocated.
 */
export class WireExchange implements Dispatcher.DispatchHandler, Deadlined {
  /** Resolves with this exchange once it has settled. */
  readonly settledExchange: Promise<WireExchange>;
  readonly timing: WireTiming;
  /** 0 when no response arrived. */
  status = 0;
  headers: IncomingHttpHeaders = NO_HEADERS;
  /** A failure without a (complete) answer: "Aborted", ECONNRESET…; null otherwise. */
  error: string | null = null;
  /** Set once settled. */
  timeline: RequestTimeline | null = null;
  private settled = false;
  private readonly chunks: Buffer[] = [];
  private keptBytes = 0;
  private receivedBytes = 0;
  private controller: Dispatcher.DispatchController | null = null;
  private stopWaitingForAbort: (() => void) | null = null;
  private resolve: (exchange: WireExchange) => void = () => {};
  private readonly line: WireLine;
  private readonly options: RequestOptions;
  private readonly hasBody: boolean;
  private readonly bodyReader: BodyReader | null;

  constructor(
    line: WireLine,
    options: RequestOptions,
    hasBody: boolean,
    bodyReader: BodyReader | null,
  ) {
    this.line = line;
    this.options = options;
    this.hasBody = hasBody;
    this.bodyReader = bodyReader;
    this.timing = new WireTiming(line.clock);
    this.settledExchange = new Promise((resolve) => (this.resolve = resolve));
    const { signal } = options;
    if (signal?.aborted) {
      this.settle(ABORTED_ERROR);
      return;
    }
    line.deadlines.watch(this);
    if (signal) this.stopWaitingForAbort = onAbortOf(signal, () => this.abortedByCaller());
  }

  /** Settled before undici took the request (the caller's signal had aborted). */
  get done(): boolean {
    return this.settled;
  }

  get startUs(): number {
    return this.timing.readyUs;
  }

  /** The whole body, or an error document's first ERROR_BODY_LIMIT_BYTES; empty when streamed. */
  get body(): Buffer {
    const { chunks } = this;
    if (chunks.length === 0) return NO_BODY;
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  }

  /** The request, body included, went out. */
  get bodySent(): boolean {
    return this.timing.bodySent;
  }

  /**
   * Cancelled on the wire: the bytes its connection moved both ways while it was on it (headers
   * included; undici then closes the connection). Null otherwise.
   */
  get cancelledWireBytes(): number | null {
    return this.timing.cancelledWireBytes;
  }

  /** An error answer's bytes: its body's when asked (RequestOptions.countErrorBody), else 0. */
  get errorBodyBytes(): number {
    return this.options.countErrorBody && this.status >= 300 ? this.timing.receivedBodyBytes : 0;
  }

  /**
   * The settled exchange's outcome, made of its timeline object rather than a copy of it: the
   * timeline is this exchange's own, made for this outcome alone.
   */
  outcome(error: string | null, bytes: number): RequestOutcome {
    const outcome = this.timeline as RequestOutcome;
    outcome.status = this.status;
    outcome.error = error;
    outcome.bytes = bytes;
    return outcome;
  }

  deadlinePassed(): void {
    this.cutOff(TIMEOUT_ERROR, `no end within the request timeout (${this.line.timeoutMs} ms)`);
  }

  /** undici could not take the request. */
  failed(error: unknown): void {
    this.settle(errorCodeFromException(error));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) {
      controller.abort(new Error("aborted by the caller"));
      return;
    }
    this.timing.requestStarted(this.hasBody);
    this.line.reconnects.requestStarting(this.timing);
  }

  onRequestSent(): void {
    this.timing.requestSent();
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (this.settled) return;
    this.timing.responseStarted();
    this.status = statusCode;
    this.headers = headers;
    this.options.onResponse?.(statusCode);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.timing.bodyData(chunk.length);
    if (this.bodyReader && this.status < 300) {
      this.bodyReader.onChunk(chunk);
      return;
    }
    this.receivedBytes += chunk.length;
    if (this.receivedBytes > ANSWER_LIMIT_BYTES) {
      this.chunks.length = 0;
      this.cutOff(RESPONSE_TOO_LARGE_ERROR, `an answer longer than ${ANSWER_LIMIT_BYTES} bytes`);
    } else if (this.status < 300 || this.keptBytes < ERROR_BODY_LIMIT_BYTES) {
      this.chunks.push(chunk);
      this.keptBytes += chunk.length;
    }
  }

  onResponseEnd(): void {
    this.settle(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.settle(errorCodeFromException(error));
  }

  private abortedByCaller(): void {
    if (this.controller !== null) {
      this.timing.cancelledOnWire();
      this.line.reconnects.closedByCancel();
    }
    this.cutOff(ABORTED_ERROR, "aborted by the caller");
  }

  /** Settled first: undici reports its own abort to the handler at once. */
  private cutOff(error: string, why: string): void {
    this.settle(error);
    this.controller?.abort(new Error(why));
  }

  private settle(error: string | null): void {
    if (this.settled) return;
    this.settled = true;
    this.line.deadlines.forget(this);
    this.stopWaitingForAbort?.();
    this.error = error;
    this.timeline = this.timing.finish();
    this.resolve(this);
  }
}
