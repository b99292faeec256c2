import type { Dispatcher } from "undici";
import type { MicrosClock, RequestTimeline } from "./object-transport.ts";

/**
 * Stamps the steps of one request as undici reports them to a dispatch handler:
 * - sent: onRequestStart, which undici calls when it writes the request on a connection, in the
 *   same step as it publishes `undici:client:sendHeaders` on its diagnostics channel (after
 *   the request waited for a free connection, and after connecting);
 * - headers: onResponseStart; first byte: the first onResponseData.
 * Both transports use it: the fast path from its own handler, the SDK path through
 * `timingInterceptor` around the handler undici's request API makes.
 */
export class WireTiming {
  readonly readyUs: number;
  private sentUs = -1;
  private bodySentUs = -1;
  private headersUs = -1;
  private firstByteUs = -1;
  private readonly clock: MicrosClock;

  constructor(clock: MicrosClock) {
    this.clock = clock;
    this.readyUs = clock();
  }

  get sent(): boolean {
    return this.sentUs >= 0;
  }

  /** The whole request, body included, was written (undici's onRequestSent). */
  get bodySent(): boolean {
    return this.bodySentUs >= 0;
  }

  requestStarted(): void {
    this.sentUs = this.clock();
  }

  requestSent(): void {
    this.bodySentUs = this.clock();
  }

  responseStarted(): void {
    this.headersUs = this.clock();
  }

  bodyData(): void {
    if (this.firstByteUs < 0) this.firstByteUs = this.clock();
  }

  /** The timeline as of now (the end); steps that never happened take the next one's time. */
  finish(): RequestTimeline {
    const endUs = this.clock();
    const firstByteUs =
      this.firstByteUs >= 0 ? this.firstByteUs : this.headersUs >= 0 ? this.headersUs : endUs;
    const headersUs = this.headersUs >= 0 ? this.headersUs : firstByteUs;
    const sentUs = this.sentUs >= 0 ? this.sentUs : headersUs;
    return { readyUs: this.readyUs, sentUs, headersUs, firstByteUs, endUs };
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
export function timingInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const timing = (options as TimedDispatchOptions).timing;
    if (!timing) return dispatch(options, handler);
    // undici's handlers are class instances: their methods are called on them, not copied.
    return dispatch(options, {
      onRequestStart: (controller, context) => {
        timing.requestStarted();
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
        timing.bodyData();
        handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    });
  };
}
