import { ABORTED_ERROR, RESPONSE_TOO_LARGE_ERROR, TIMEOUT_ERROR } from "@taillab/api";
import type { IncomingHttpHeaders } from "node:http";
import { Pool, type Dispatcher } from "undici";
import type { Reading } from "../operations/engine-operation.ts";
import { operationMethods } from "../operations/registry.ts";
import { onAbortOf } from "./abort-callbacks.ts";
import { CancelReconnects } from "./cancel-reconnects.ts";
import { ANSWER_LIMIT_BYTES } from "./response-body.ts";
import type {
  MicrosClock,
  ObjectTransport,
  RequestOptions,
  RequestOutcome,
  RequestTimeline,
  TransportTarget,
} from "./object-transport.ts";
import {
  errorCodeFromException,
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
import { WireTiming } from "./wire-timing.ts";

/** Error bodies are small XML documents; anything past this is read and dropped. */
const ERROR_BODY_LIMIT_BYTES = 64 * 1024;

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
   * One request on the wire; `onBody` takes a 2xx answer's body as it comes (GET), else the
   * answer is read whole.
   */
  sendOnWire(
    request: WireRequest,
    options: RequestOptions,
    onBody: ((chunk: Buffer) => void) | null,
  ): Promise<WireResponse>;
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

/** One request's answer off the wire, before an operation reads it. */
export interface WireResponse {
  timeline: RequestTimeline;
  /** 0 when no response arrived. */
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole body, or an error document's first ERROR_BODY_LIMIT_BYTES; empty when streamed. */
  body: Buffer;
  /** A failure without a (complete) answer: "Aborted", ECONNRESET…; null otherwise. */
  error: string | null;
  /** The request, body included, went out. */
  bodySent: boolean;
  /**
   * Cancelled on the wire: the bytes its connection moved both ways while it was on it (headers
   * included; undici then closes the connection). Null otherwise.
   */
  cancelledWireBytes: number | null;
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

  /**
   * One request on the wire, through undici's dispatch API with a handler of our own: no response
   * stream is made, the body arrives as chunks (`onBody` for a 2xx GET, else collected whole, an
   * error document up to ERROR_BODY_LIMIT_BYTES; any answer but a streamed one is cut off past
   * ANSWER_LIMIT_BYTES as RESPONSE_TOO_LARGE_ERROR), and every step is stamped. Failures come back
   * as a code, never thrown. A stop or cancel settles at once, even for a request still waiting
   * for a connection (undici then drops it when its turn comes); so does the request timeout,
   * counted from here, which bounds the whole attempt: a hung server, or one that drips its
   * answer, cannot hold it longer.
   */
  function sendOnWire(
    request: WireRequest,
    { signal, onResponse, headers: extraHeaders }: RequestOptions,
    onBody: ((chunk: Buffer) => void) | null,
  ): Promise<WireResponse> {
    const timing = new WireTiming(clock);
    return new Promise<WireResponse>((resolve) => {
      let status = 0;
      let headers: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let kept = 0;
      let received = 0;
      let controller: Dispatcher.DispatchController | null = null;
      let settled = false;
      let stopWaitingForAbort = () => {};
      const deadline = setTimeout(
        () => cutOff(TIMEOUT_ERROR, `no end within the request timeout (${timeoutMs} ms)`),
        timeoutMs,
      );
      const settle = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        stopWaitingForAbort();
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        const { cancelledWireBytes, bodySent } = timing;
        resolve({
          timeline: timing.finish(),
          status,
          headers,
          body,
          error,
          bodySent,
          cancelledWireBytes,
        });
      };
      // Settled first: undici reports its own abort to the handler at once.
      const cutOff = (error: string, why: string) => {
        settle(error);
        controller?.abort(new Error(why));
      };
      if (signal?.aborted) {
        settle(ABORTED_ERROR);
        return;
      }
      if (signal) {
        stopWaitingForAbort = onAbortOf(signal, () => {
          if (controller !== null) {
            timing.cancelledOnWire();
            reconnects.closedByCancel();
          }
          cutOff(ABORTED_ERROR, "aborted by the caller");
        });
      }
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
          {
            onRequestStart: (started) => {
              controller = started;
              if (settled) {
                started.abort(new Error("aborted by the caller"));
                return;
              }
              timing.requestStarted(request.body != null);
              reconnects.requestStarting((socket, newConnection) =>
                timing.connected(socket, newConnection),
              );
            },
            onRequestSent: () => timing.requestSent(),
            onResponseStart: (_controller, statusCode, responseHeaders) => {
              if (settled) return;
              timing.responseStarted();
              status = statusCode;
              headers = responseHeaders;
              onResponse?.(statusCode);
            },
            onResponseData: (_controller, chunk) => {
              if (settled) return;
              timing.bodyData();
              if (onBody && status < 300) {
                onBody(chunk);
                return;
              }
              received += chunk.length;
              if (received > ANSWER_LIMIT_BYTES) {
                chunks.length = 0;
                cutOff(
                  RESPONSE_TOO_LARGE_ERROR,
                  `an answer longer than ${ANSWER_LIMIT_BYTES} bytes`,
                );
              } else if (status < 300 || kept < ERROR_BODY_LIMIT_BYTES) {
                chunks.push(chunk);
                kept += chunk.length;
              }
            },
            onResponseEnd: () => settle(null),
            onResponseError: (_controller, error) => settle(errorCodeFromException(error)),
          },
        );
      } catch (error) {
        settle(errorCodeFromException(error));
      }
    });
  }

  async function exchange<T extends object>(
    request: WireRequest,
    options: RequestOptions,
    none: T,
    read: (reply: Reply) => Reading<T>,
    { emptyBodyIsError = false, uploadBytes = 0 } = {},
  ): Promise<RequestOutcome & T> {
    const wire = await sendOnWire(request, options, null);
    const { timeline, status } = wire;
    if (wire.error !== null) {
      const bytes = wire.cancelledWireBytes ?? (status === 0 && wire.bodySent ? uploadBytes : 0);
      return { ...timeline, status, error: wire.error, bytes, ...none };
    }
    if (status >= 300) {
      const error = errorCodeFromXml(wire.body.toString("utf8")) ?? errorCodeFromStatus(status);
      return { ...timeline, status, error, bytes: 0, ...none };
    }
    const bodyError = errorCodeFromSuccessBody(wire.body, emptyBodyIsError);
    if (bodyError !== null) return { ...timeline, status, error: bodyError, bytes: 0, ...none };
    const { fields, error = null, bytes = 0 } = read({ headers: wire.headers, body: wire.body });
    return { ...timeline, status, error, bytes, ...fields };
  }

  const wire: FastWire = { target, address, objectPath, sendOnWire, exchange };
  return {
    ...operationMethods((operation) => operation.fast(wire)),
    // Requests still waiting for a connection (cancelled ones among them) are not waited for.
    close: () => pool.destroy(),
  };
}
