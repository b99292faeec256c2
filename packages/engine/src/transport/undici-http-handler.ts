import { TIMEOUT_ERROR } from "@taillab/api";
import { HttpRequest, HttpResponse } from "@smithy/protocol-http";
import type { HttpHandler } from "@smithy/protocol-http";
import type {
  HeaderBag,
  HttpHandlerOptions,
  MiddlewareStack,
  QueryParameterBag,
} from "@smithy/types";
import type { ConnectionOptions } from "node:tls";
import { Pool, type Dispatcher } from "undici";
import { ANSWER_LIMIT_BYTES, limitedBody } from "./response-body.ts";
import { CancelReconnects } from "./cancel-reconnects.ts";
import { encodeRfc3986 } from "./s3-uri-encoding.ts";
import { timingInterceptor, type WireTiming } from "./wire-timing.ts";

/**
 * The WireTiming of a request on its way to this handler, set by the SDK transport's response
 * probe (the innermost middleware, which passes this very request object to the handler).
 */
export const requestTimings = new WeakMap<HttpRequest, WireTiming>();

/**
 * Requests whose 2xx answer may be longer than ANSWER_LIMIT_BYTES, with their own limit
 * (Infinity: a GetObject body streamed and counted by its reader, never kept). Every other answer,
 * and every error answer, fails with ResponseTooLargeError past ANSWER_LIMIT_BYTES.
 */
export const answerLimits = new WeakMap<HttpRequest, number>();

/** Lets the 2xx answer of the command whose stack this is run to `limitBytes`. */
export function allowAnswerUpTo<Input extends object, Output extends object>(
  stack: MiddlewareStack<Input, Output>,
  limitBytes: number,
): void {
  stack.add(
    (next) => async (args) => {
      if (HttpRequest.isInstance(args.request)) answerLimits.set(args.request, limitBytes);
      return next(args);
    },
    // The innermost step, as the response probe's: signing hands on a copy of the request, so a
    // limit set on it before then never reaches this handler.
    { step: "deserialize", priority: "low" },
  );
}

export interface UndiciHttpHandlerConfig {
  /** Keep-alive connections per origin: the most requests in flight to one origin. */
  maxConnections: number;
  /** Give up connecting after this long (undici's default is 10 s). */
  connectTimeoutMs?: number;
  /**
   * A request that has not ended this long after it was handed over, its response body
   * included, fails with an error whose code is TIMEOUT_ERROR ("ClientTimeout"). None if absent.
   */
  requestTimeoutMs?: number;
  /** How connections are made: a CA to trust, or no certificate check (https only). */
  tls?: ConnectionOptions;
  /**
   * Every request goes to this origin (http(s)://host:port), whatever host its URL names: with
   * virtual-host addressing the SDK asks for `bucket.host`, which then needs no DNS name of its
   * own (the Host header still names it, and TLS takes its server name from that header).
   */
  origin?: string;
}

const CONFIG_KEYS: ReadonlySet<unknown> = new Set<keyof UndiciHttpHandlerConfig>([
  "maxConnections",
  "connectTimeoutMs",
  "requestTimeoutMs",
  "tls",
  "origin",
]);

/**
 * Request headers undici refuses or manages itself. The SDK adds `Expect: 100-continue` to PUTs
 * (we turn that off too) and may add `Transfer-Encoding` for streams; none of them are signed.
 */
const DROPPED_HEADERS = new Set([
  "expect",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
]);

/**
 * A Smithy HttpHandler (the SDK's request handler) on undici: one keep-alive Pool per origin,
 * the response body handed to the SDK as undici's Node Readable, which the SDK's stream
 * collector and sdkStreamMixin accept. Cheaper per request than the SDK's node:http handler.
 */
export class UndiciHttpHandler implements HttpHandler<UndiciHttpHandlerConfig> {
  readonly metadata = { handlerProtocol: "http/1.1" };
  #config: UndiciHttpHandlerConfig;
  readonly #pools = new Map<string, { pool: Pool; timed: Dispatcher }>();

  constructor(config: UndiciHttpHandlerConfig) {
    if (!Number.isInteger(config.maxConnections) || config.maxConnections < 1) {
      throw new Error(`UndiciHttpHandler: maxConnections must be a positive integer`);
    }
    this.#config = { ...config };
  }

  async handle(
    request: HttpRequest,
    { abortSignal }: HttpHandlerOptions = {},
  ): Promise<{ response: HttpResponse }> {
    const callerSignal = toAbortSignal(abortSignal);
    if (callerSignal?.aborted) throw abortError(callerSignal);
    const port = request.port ? `:${request.port}` : "";
    const { timed } = this.#poolFor(
      this.#config.origin ?? `${request.protocol}//${request.hostname}${port}`,
    );
    const timing = requestTimings.get(request);
    const query = request.query ? buildQueryString(request.query) : "";
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!DROPPED_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    const deadline = this.#startDeadline(callerSignal);
    try {
      const response = await timed.request({
        ...(timing ? { timing } : {}),
        method: request.method,
        path: query ? `${request.path}?${query}` : request.path,
        // Keep the connection after a HEAD (undici closes it by default): see fast-transport.ts.
        ...(request.method === "HEAD" ? { reset: false } : {}),
        headers,
        body: request.body ?? null,
        signal: deadline.signal ?? null,
      });
      const limitBytes =
        response.statusCode < 300
          ? (answerLimits.get(request) ?? ANSWER_LIMIT_BYTES)
          : ANSWER_LIMIT_BYTES;
      const body =
        limitBytes === Number.POSITIVE_INFINITY
          ? response.body
          : limitedBody(response.body, limitBytes);
      // The body is read after this returns: the deadline holds until it is done.
      body.once("close", deadline.clear);
      return {
        response: new HttpResponse({
          statusCode: response.statusCode,
          headers: flattenHeaders(response.headers),
          body,
        }),
      };
    } catch (error) {
      deadline.clear();
      if (callerSignal?.aborted) throw abortError(callerSignal);
      throw error;
    }
  }

  /**
   * The caller's signal, and the request timeout's when there is one: it aborts the request (or
   * its body) with an error coded TIMEOUT_ERROR. Its timer does not keep the process alive.
   */
  #startDeadline(callerSignal: AbortSignal | undefined): {
    signal: AbortSignal | undefined;
    clear: () => void;
  } {
    const timeoutMs = this.#config.requestTimeoutMs;
    if (timeoutMs === undefined) return { signal: callerSignal, clear: () => {} };
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(timeoutError(timeoutMs)), timeoutMs);
    timer.unref();
    return {
      signal: callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal,
      clear: () => clearTimeout(timer),
    };
  }

  updateHttpClientConfig(
    key: keyof UndiciHttpHandlerConfig,
    value: UndiciHttpHandlerConfig[typeof key],
  ): void {
    // The SDK also passes hints meant for its own handler (Symbol.for("logger"), a default socket
    // timeout); they do not apply here.
    if (!CONFIG_KEYS.has(key)) return;
    this.#config = { ...this.#config, [key]: value };
    // Pools take settings when made: let requests in flight finish, start new pools.
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    for (const { pool } of pools) void pool.close();
  }

  httpHandlerConfigs(): UndiciHttpHandlerConfig {
    return { ...this.#config };
  }

  /** Called by `client.destroy()`: drops all connections at once. */
  destroy(): void {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    for (const { pool } of pools) void pool.destroy();
  }

  /** Waits for requests in flight, then closes every pool. */
  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map(({ pool }) => pool.close()));
  }

  #poolFor(origin: string): { pool: Pool; timed: Dispatcher } {
    let entry = this.#pools.get(origin);
    if (entry === undefined) {
      const { connectTimeoutMs, requestTimeoutMs, tls } = this.#config;
      // Connect times are differences: any microsecond clock will do.
      const reconnects = new CancelReconnects(() => Math.round(performance.now() * 1000));
      const pool = new Pool(origin, {
        connections: this.#config.maxConnections,
        pipelining: 1,
        // The request timeout bounds the whole request; undici's idle timers (300 s by default)
        // must not cut a longer one short under another name.
        ...(requestTimeoutMs === undefined
          ? {}
          : { headersTimeout: requestTimeoutMs, bodyTimeout: requestTimeoutMs }),
        connect: reconnects.connector({
          ...tls,
          ...(connectTimeoutMs === undefined ? {} : { timeout: connectTimeoutMs }),
        }),
      });
      entry = { pool, timed: pool.compose(timingInterceptor(reconnects)) };
      this.#pools.set(origin, entry);
    }
    return entry;
  }
}

/** The SDK's query bag as a query string, encoded the way the SDK's own handlers do. */
export function buildQueryString(query: QueryParameterBag): string {
  const parts: string[] = [];
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    const key = encodeRfc3986(name);
    if (Array.isArray(value)) {
      for (const item of value) parts.push(`${key}=${encodeRfc3986(item)}`);
    } else if (typeof value === "string") {
      parts.push(`${key}=${encodeRfc3986(value)}`);
    } else {
      parts.push(key);
    }
  }
  return parts.join("&");
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): HeaderBag {
  const flat: HeaderBag = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** Smithy still allows its own pre-standard AbortSignal shape; undici needs a real one. */
function toAbortSignal(signal: HttpHandlerOptions["abortSignal"]): AbortSignal | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.onabort = () => controller.abort();
  return controller.signal;
}

function abortError(signal: AbortSignal): Error {
  const error = new Error("Request aborted", { cause: signal.reason });
  error.name = "AbortError";
  return error;
}

function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`no end within the request timeout (${timeoutMs} ms)`), {
    code: TIMEOUT_ERROR,
  });
}
