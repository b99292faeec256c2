import type { IncomingHttpHeaders } from "node:http";
import { Pool, type Dispatcher } from "undici";
import type { Reading } from "../operations/engine-operation.ts";
import { operationMethods } from "../operations/registry.ts";
import { CancelReconnects } from "./cancel-reconnects.ts";
import type {
  MicrosClock,
  ObjectTransport,
  RequestOptions,
  RequestOutcome,
  TransportTarget,
} from "./object-transport.ts";
import { RequestDeadlines } from "./request-deadlines.ts";
import {
  errorCodeFromStatus,
  errorCodeFromSuccessBody,
  errorCodeFromXml,
} from "./s3-error-code.ts";
import { encodeS3Key } from "./s3-uri-encoding.ts";
import {
  requestTimeoutOf,
  resolveTargetAddress,
  tlsConnectOptions,
  type TargetAddress,
} from "./transport-target.ts";
import { createSigner } from "./sigv4-signer.ts";
import { WireExchange, type BodyReader, type WireLine } from "./wire-exchange.ts";

export interface WireRequest {
  method: Dispatcher.HttpMethod;
  /** Encoded path and query, as sent and signed. */
  path: string;
  /** The target bucket's Host header when absent. */
  host?: string;
  /** Sent and signed. */
  headers?: Record<string, string>;
  body?: Uint8Array | string | null;
}

/** A 2xx answer read whole, as an operation reads it. */
export interface Reply {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the fast path lends each operation (operations/*.ts) to build its requests with. */
export interface FastWire {
  target: TransportTarget;
  address: TargetAddress;
  /** The object's encoded path in the target bucket. */
  objectPath(key: string): string;
  /**
   * One request on the wire (wire-exchange.ts), resolving once it has settled; `bodyReader`
   * takes a 2xx answer's body as it comes (GET), else the answer is read whole.
   */
  sendOnWire(
    request: WireRequest,
    options: RequestOptions,
    bodyReader: BodyReader | null,
  ): Promise<WireExchange>;
  /**
   * One request whose answer is read whole. `none` is the operation's fields when it failed;
   * `read` turns a 2xx answer that is not an S3 error document into them. `uploadBytes`: the
   * body's size, counted once sent even if no answer came.
   */
  exchange<T extends object>(
    request: WireRequest,
    options: RequestOptions,
    none: T,
    read: (reply: Reply) => Reading<T>,
    flags?: { emptyBodyIsError?: boolean; uploadBytes?: number },
  ): Promise<RequestOutcome & T>;
}

/**
 * The hot path: undici Pool + SigV4 (sigv4-signer.ts), nothing else between the caller and the
 * socket.
 *
 * The payload is signed as UNSIGNED-PAYLOAD (sent as X-Amz-Content-Sha256, and the canonical
 * body hash), so a PUT body is never SHA-256 hashed on the client: that hash
 * would cost more CPU than the rest of the request for large objects. S3 and the S3-compatible
 * servers accept UNSIGNED-PAYLOAD over https and plain http alike (the SDK does the same over
 * https; over TLS the body is integrity-protected anyway).
 *
 * Only GET streams its body; every other answer is a small XML document (or nothing), read whole
 * and then picked apart with a few patterns (s3-response-xml.ts).
 */
export function createFastTransport(target: TransportTarget, clock: MicrosClock): ObjectTransport {
  const address = resolveTargetAddress(target);
  const timeoutMs = requestTimeoutOf(target);
  const reconnects = new CancelReconnects(clock);
  const pool = new Pool(address.origin, {
    connections: target.maxConnections,
    pipelining: 1,
    // The request timeout below bounds every attempt as a whole; undici's own idle timers
    // (300 s by default) must not cut a longer one short under another name. (Turning them off
    // with 0 instead cost hedged requests a third of their tail cut in tail-modes.test.ts.)
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: reconnects.connector(tlsConnectOptions(target) ?? {}),
  });
  const sign = createSigner(target);
  const objectPath = (key: string) => address.pathPrefix + encodeS3Key(key);

  const line: WireLine = {
    clock,
    reconnects,
    deadlines: new RequestDeadlines(timeoutMs, clock),
    timeoutMs,
  };

  function sendOnWire(
    request: WireRequest,
    options: RequestOptions,
    bodyReader: BodyReader | null,
  ): Promise<WireExchange> {
    const wire = new WireExchange(line, options, request.body != null, bodyReader);
    if (wire.done) return wire.settledExchange;
    const extraHeaders = options.headers;
    try {
      pool.dispatch(
        {
          method: request.method,
          path: request.path,
          // undici closes the connection after every HEAD unless told otherwise (for servers
          // that send a body anyway); S3 servers do not, and a reconnect per HEAD would be
          // measured.
          ...(request.method === "HEAD" ? { reset: false } : {}),
          headers: sign(
            request.method,
            request.path,
            request.host ?? address.hostHeader,
            extraHeaders ? { ...request.headers, ...extraHeaders } : request.headers,
          ),
          body: request.body ?? null,
        },
        wire,
      );
    } catch (error) {
      wire.failed(error);
    }
    return wire.settledExchange;
  }

  async function exchange<T extends object>(
    request: WireRequest,
    options: RequestOptions,
    none: T,
    read: (reply: Reply) => Reading<T>,
    { emptyBodyIsError = false, uploadBytes = 0 } = {},
  ): Promise<RequestOutcome & T> {
    const wire = await sendOnWire(request, options, null);
    const { status } = wire;
    if (wire.error !== null) {
      const bytes =
        wire.cancelledWireBytes ??
        (status === 0 && wire.bodySent ? uploadBytes : wire.errorBodyBytes);
      return Object.assign(wire.outcome(wire.error, bytes), none);
    }
    const body = wire.body;
    if (status >= 300) {
      const error = errorCodeFromXml(body.toString("utf8")) ?? errorCodeFromStatus(status);
      return Object.assign(wire.outcome(error, wire.errorBodyBytes), none);
    }
    const bodyError = errorCodeFromSuccessBody(body, emptyBodyIsError);
    if (bodyError !== null) return Object.assign(wire.outcome(bodyError, 0), none);
    const { fields, error = null, bytes = 0 } = read({ headers: wire.headers, body });
    return Object.assign(wire.outcome(error, bytes), fields);
  }

  const wire: FastWire = { target, address, objectPath, sendOnWire, exchange };
  return {
    ...operationMethods((operation) => operation.fast(wire)),
    // Requests still waiting for a connection (cancelled ones among them) are not waited for.
    close: () => pool.destroy(),
  };
}
