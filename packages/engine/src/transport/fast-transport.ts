import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { Pool, type Dispatcher } from "undici";
import { CancelReconnects } from "./cancel-reconnects.ts";
import { createGetBodyCheck } from "./get-body-check.ts";
import type {
  GetOptions,
  MicrosClock,
  ObjectTransport,
  RequestOptions,
  RequestOutcome,
  TransportTarget,
} from "./object-transport.ts";
import {
  assertCompletedParts,
  assertDeleteKeys,
  assertMaxKeys,
  assertPartNumber,
  assertUploadId,
  completeMultipartUploadXml,
  copySourceHeaderValue,
  createBucketXml,
  deleteObjectsXml,
  rangeHeaderValue,
} from "./request-arguments.ts";
import {
  errorCodeFromStatus,
  errorCodeFromSuccessBody,
  errorCodeFromXml,
  partialFailureCode,
} from "./s3-error-code.ts";
import {
  countListedBuckets,
  parseDeleteErrors,
  parseListObjectsPage,
  parseTextField,
} from "./s3-response-xml.ts";
import { encodeRfc3986, encodeS3Key } from "./s3-uri-encoding.ts";
import {
  addressBucket,
  requestTimeoutOf,
  resolveTargetAddress,
  tlsConnectOptions,
} from "./transport-target.ts";
import { createSigner } from "./sigv4-signer.ts";
import { RequestDeadlines } from "./request-deadlines.ts";
import { WireExchange, type BodyReader, type WireLine } from "./wire-exchange.ts";

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
  const line: WireLine = {
    clock,
    reconnects,
    deadlines: new RequestDeadlines(timeoutMs, clock),
    timeoutMs,
  };
  const sign = createSigner(target);
  const objectPath = (key: string) => address.pathPrefix + encodeS3Key(key);

  interface WireRequest {
    method: Dispatcher.HttpMethod;
    /** Encoded path and query, as sent and signed. */
    path: string;
    /** The target bucket's Host header when absent. */
    host?: string;
    /** Sent and signed. */
    headers?: Record<string, string>;
    body?: Uint8Array | string | null;
  }

  /** What an operation takes from a 2xx answer: its own fields, and an error or bytes if any. */
  interface Reading<T> {
    fields: T;
    error?: string | null;
    bytes?: number;
  }

  interface Reply {
    headers: IncomingHttpHeaders;
    body: Buffer;
  }

  /** One request on the wire (wire-exchange.ts); resolves once it has settled. */
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

  /**
   * One request whose answer is read whole. `none` is the operation's fields when it failed;
   * `read` turns a 2xx answer that is not an S3 error document into them. `uploadBytes`: the
   * body's size, counted once sent even if no answer came.
   */
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
        (status === 0 && wire.bodySent ? uploadBytes : errorBodyBytes(wire, options));
      return Object.assign(outcomeOf(wire, wire.error, bytes), none);
    }
    const body = wire.body;
    if (status >= 300) {
      const error = errorCodeFromXml(body.toString("utf8")) ?? errorCodeFromStatus(status);
      return Object.assign(outcomeOf(wire, error, errorBodyBytes(wire, options)), none);
    }
    const bodyError = errorCodeFromSuccessBody(body, emptyBodyIsError);
    if (bodyError !== null) return Object.assign(outcomeOf(wire, bodyError, 0), none);
    const { fields, error = null, bytes = 0 } = read({ headers: wire.headers, body });
    return Object.assign(outcomeOf(wire, error, bytes), fields);
  }

  async function getObject(key: string, options: GetOptions): Promise<RequestOutcome> {
    const { range } = options;
    const request: WireRequest = {
      method: "GET",
      path: objectPath(key),
      ...(range ? { headers: { Range: rangeHeaderValue(range) } } : {}),
    };
    const body = createGetBodyCheck(options);
    const wire = await sendOnWire(request, options, body);
    const { status } = wire;
    if (wire.error !== null) {
      const bytes =
        wire.cancelledWireBytes ?? (status >= 300 ? errorBodyBytes(wire, options) : body.bytes);
      return outcomeOf(wire, wire.error, bytes);
    }
    if (status >= 300) {
      const error = errorCodeFromXml(wire.body.toString("utf8")) ?? errorCodeFromStatus(status);
      return outcomeOf(wire, error, errorBodyBytes(wire, options));
    }
    return outcomeOf(wire, body.verdict(status), body.bytes);
  }

  const NO_FIELDS = {};
  const nothing = (): Reading<object> => ({ fields: NO_FIELDS });
  const uploadPath = (key: string, uploadId: string, partNumber?: number) => {
    assertUploadId(uploadId);
    const part = partNumber === undefined ? "" : `partNumber=${partNumber}&`;
    return `${objectPath(key)}?${part}uploadId=${encodeRfc3986(uploadId)}`;
  };
  const etagOf = ({ headers }: Reply) => {
    const etag = headers.etag;
    return { fields: { etag: typeof etag === "string" && etag.length > 0 ? etag : null } };
  };

  return {
    putObject: async (key, body, options = {}) =>
      exchange(
        { method: "PUT", path: objectPath(key), body },
        options,
        NO_FIELDS,
        () => ({ fields: NO_FIELDS, bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      ),

    getObject: async (key, options = {}) => getObject(key, options),

    deleteObject: async (key, options = {}) =>
      exchange({ method: "DELETE", path: objectPath(key) }, options, NO_FIELDS, nothing),

    headObject: async (key, options = {}) =>
      exchange({ method: "HEAD", path: objectPath(key) }, options, NO_FIELDS, nothing),

    copyObject: async (sourceKey, destinationKey, options = {}) =>
      exchange(
        {
          method: "PUT",
          path: objectPath(destinationKey),
          headers: { "x-amz-copy-source": copySourceHeaderValue(target.bucket, sourceKey) },
        },
        options,
        NO_FIELDS,
        nothing,
        { emptyBodyIsError: true },
      ),

    listObjects: async ({ prefix, maxKeys, continuationToken }, options = {}) => {
      assertMaxKeys(maxKeys);
      const query = [
        "list-type=2",
        ...(continuationToken === undefined
          ? []
          : [`continuation-token=${encodeRfc3986(continuationToken)}`]),
        ...(maxKeys === undefined ? [] : [`max-keys=${maxKeys}`]),
        ...(prefix === undefined ? [] : [`prefix=${encodeRfc3986(prefix)}`]),
      ].join("&");
      return exchange(
        { method: "GET", path: `${address.pathPrefix}?${query}` },
        options,
        { keyCount: 0, nextContinuationToken: null },
        ({ body }) => ({ fields: parseListObjectsPage(body.toString("utf8")), bytes: body.length }),
      );
    },

    createMultipartUpload: async (key, options = {}) =>
      exchange(
        { method: "POST", path: `${objectPath(key)}?uploads` },
        options,
        { uploadId: null },
        ({ body }) => ({ fields: { uploadId: parseTextField(body.toString("utf8"), "UploadId") } }),
      ),

    uploadPart: async (key, uploadId, partNumber, body, options = {}) => {
      assertPartNumber(partNumber);
      return exchange(
        { method: "PUT", path: uploadPath(key, uploadId, partNumber), body },
        options,
        { etag: null },
        (reply) => ({ ...etagOf(reply), bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      );
    },

    completeMultipartUpload: async (key, uploadId, parts, options = {}) => {
      assertCompletedParts(parts);
      const body = completeMultipartUploadXml(parts);
      return exchange(
        {
          method: "POST",
          path: uploadPath(key, uploadId),
          headers: { "Content-Type": "application/xml" },
          body,
        },
        options,
        { etag: null },
        ({ body: answer }) => ({
          fields: { etag: parseTextField(answer.toString("utf8"), "ETag") },
        }),
        { emptyBodyIsError: true },
      );
    },

    abortMultipartUpload: async (key, uploadId, options = {}) =>
      exchange({ method: "DELETE", path: uploadPath(key, uploadId) }, options, NO_FIELDS, nothing),

    createBucket: async (name, options = {}) => {
      const bucket = addressBucket(target, address.endpointHost, name);
      const body = createBucketXml(target.region);
      return exchange(
        {
          method: "PUT",
          path: bucket.pathPrefix,
          host: bucket.hostHeader,
          ...(body === null ? {} : { headers: { "Content-Type": "application/xml" }, body }),
        },
        options,
        NO_FIELDS,
        nothing,
      );
    },

    deleteBucket: async (name, options = {}) => {
      const bucket = addressBucket(target, address.endpointHost, name);
      return exchange(
        { method: "DELETE", path: bucket.pathPrefix, host: bucket.hostHeader },
        options,
        NO_FIELDS,
        nothing,
      );
    },

    listBuckets: async (options = {}) =>
      exchange(
        { method: "GET", path: "/", host: address.endpointHost },
        options,
        { bucketCount: 0 },
        ({ body }) => ({
          fields: { bucketCount: countListedBuckets(body.toString("utf8")) },
          bytes: body.length,
        }),
      ),

    deleteObjects: async (keys, options = {}) => {
      assertDeleteKeys(keys);
      const body = deleteObjectsXml(keys);
      return exchange(
        {
          method: "POST",
          path: `${address.pathPrefix}?delete`,
          headers: {
            "Content-Type": "application/xml",
            "Content-MD5": createHash("md5").update(body).digest("base64"),
          },
          body,
        },
        options,
        { keyErrors: [] },
        ({ body: answer }) => {
          const keyErrors = parseDeleteErrors(answer.toString("utf8"));
          return { fields: { keyErrors }, error: partialFailureCode(keyErrors) };
        },
      );
    },

    // Requests still waiting for a connection (cancelled ones among them) are not waited for.
    close: () => pool.destroy(),
  };
}

/**
 * A settled exchange's outcome, made of its timeline object rather than a copy of it: the
 * timeline is the exchange's own, made for this outcome alone.
 */
function outcomeOf(wire: WireExchange, error: string | null, bytes: number): RequestOutcome {
  const outcome = wire.timeline as RequestOutcome;
  outcome.status = wire.status;
  outcome.error = error;
  outcome.bytes = bytes;
  return outcome;
}

/** An error answer's bytes: its body's when asked (RequestOptions.countErrorBody), else 0. */
function errorBodyBytes(wire: WireExchange, { countErrorBody }: RequestOptions): number {
  return countErrorBody && wire.status >= 300 ? wire.timing.receivedBodyBytes : 0;
}
