/**
 * The engine's S3 data path: object, multipart and bucket operations, timed, behind one interface
 * with two implementations.
 *
 * - `fast` (fast-transport.ts) — the hot path. One undici Pool per endpoint, SigV4 (sigv4-signer.ts) with an
 *   UNSIGNED-PAYLOAD body hash, keys encoded once, no middleware stack. On a 2-core machine
 *   against MinIO (4 KiB GET, 16 in flight) a loop like this did ~3 900 GET/s at 0.15 CPU-s per
 *   1 000 requests, where @aws-sdk/client-s3 with its default handler did ~1 600 GET/s at
 *   0.57 CPU-s. Load generator and server usually share the machine, so every CPU-second the
 *   client spends is taken from the server being measured: the default path must be lean.
 * - `sdk` (sdk-transport.ts) — @aws-sdk/client-s3 over an undici-based Smithy handler
 *   (undici-http-handler.ts): what most applications use, with the SDK's serialisation, signing
 *   and error parsing, for comparing against the fast path or when a server needs the SDK's
 *   behaviour. Retries are off (maxAttempts 1): a benchmark must not retry silently. The undici
 *   handler trims the SDK's CPU cost only a little (~0.65 vs ~0.78 CPU-s per 1 000 GETs with the
 *   default node:http handler, same setup): the middleware stack is where the time goes.
 *
 * Both produce identical outcomes (status, error code, byte count and the operation's own fields)
 * for the same requests; tests run one script through both and compare. Metadata operations
 * (bucket create / delete / list, DeleteObjects, listing) are here too, so a load run times them
 * like object operations. The control plane (preflight, setup and cleanup around a run) is in
 * control-plane.ts and always uses the SDK.
 *
 * S3 answers some requests 200 OK with an S3 error document as the body (those that fail
 * part-way; each operation's module says whether it is one, `emptyBodyIsError`). Both paths
 * report such an answer as the status that came (200) with the document's Code as the error, and
 * a 2xx of such an operation with an empty body as "InternalError" (the name the SDK gives it).
 *
 * Each operation's requests and answers are its module's (../operations/): the transports are
 * made from their registry.
 */
import type { TransportKind } from "@taillab/api";
import type { OperationMethods } from "../operations/registry.ts";
import { createFastTransport } from "./fast-transport.ts";
import { createSdkTransport } from "./sdk-transport.ts";

export interface ResolvedCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Plain data (it is posted to worker threads). */
export interface TransportTarget {
  /** http(s)://host:port, no path. */
  url: string;
  region: string;
  addressing: "path" | "virtual-host";
  /** null = unsigned (anonymous) requests. */
  credentials: ResolvedCredentials | null;
  bucket: string;
  /** Keep-alive pool size, i.e. the most requests in flight. */
  maxConnections: number;
  /**
   * An attempt that has not ended this long after it was handed to the transport is cut off
   * and fails as TIMEOUT_ERROR (api's "ClientTimeout"). Default: api's DEFAULT_REQUEST_TIMEOUT_MS.
   */
  requestTimeoutMs?: number;
  /** https: a CA to trust besides the system's, or no certificate check at all. */
  tls?: TargetTls;
}

export interface TargetTls {
  /** PEM text of a CA (a lab server's self-signed certificate, or the CA that signed it). */
  ca?: string;
  /** Accept any certificate. */
  insecure?: boolean;
}

/** Microseconds since the run started, supplied by the caller so every thread shares one time base. */
export type MicrosClock = () => number;

/**
 * When each step of one request happened (µs, the caller's clock), as RequestRecord names them:
 * ready (the call was made) ≤ sent (undici wrote the request on a connection, after signing,
 * waiting for a free connection and connecting) ≤ headers (the response headers arrived) ≤
 * firstByte (the first body byte arrived; headers for an empty body) ≤ end (body read, or the
 * failure). A step that never happened takes the time of the next one that did.
 */
export interface RequestTimeline {
  readyUs: number;
  sentUs: number;
  headersUs: number;
  firstByteUs: number;
  endUs: number;
  /**
   * When the whole request, body included, was written (sent ≤ bodySent ≤ headers): an upload's
   * time on the wire ends here. Absent when it never was.
   */
  bodySentUs?: number;
  /**
   * The connect time (TCP + TLS) of the new connection this request was the first on: it waited
   * for it between ready and sent. Absent for a request on a connection already open.
   */
  connectUs?: number;
  /**
   * connectUs again when that connection replaced one a cancelled request closed (see
   * cancel-reconnects.ts).
   */
  reconnectUs?: number;
}

export interface RequestOutcome extends RequestTimeline {
  /** 0 when no HTTP response arrived. */
  status: number;
  /**
   * null on success. Otherwise: the S3 error Code from the XML body (NoSuchKey…); for bodiless
   * error responses a code from the status ("NotFound", "Forbidden", "HTTP503"); for failures
   * without a response the Node/undici code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…);
   * "Aborted" when the caller's signal aborted; "ClientTimeout" when it had not ended within the
   * target's request timeout; "ContentMismatch" when a verified GET got other
   * bytes than expected; "RangeIgnored" when a ranged GET was answered 2xx but not 206;
   * "PartialFailure:<codes>" when DeleteObjects could not delete some keys, with their distinct
   * codes (`PartialFailure:AccessDenied`; each key's in `keyErrors`).
   */
  error: string | null;
  /**
   * Payload bytes moved, 0 for every error response unless asked (RequestOptions.countErrorBody:
   * then its body's bytes):
   * - PUT, UploadPart: the body's size once it was sent (also when the attempt was then cancelled:
   *   those bytes went over the wire), 0 for an error response;
   * - GET: the body bytes of a 2xx response actually received (possibly partial when aborted); of
   *   a ranged GET, the slice's bytes;
   * - ListObjectsV2, ListBuckets: the response body's bytes (the listing is the payload);
   * - 0 for DELETE, HEAD, a server-side copy (the data moves inside the server; the response does
   *   not say how much, so the caller accounts for it), the other multipart calls, bucket
   *   create / delete and DeleteObjects.
   */
  bytes: number;
}

export interface GetExpectation {
  bytes: number;
  md5Hex: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /**
   * Called once when the response headers arrive, before the body is read: a tied request cancels
   * its twin here. Both paths call it from the raw response (the SDK path through a middleware
   * below its deserialiser), with the status as sent.
   */
  onResponse?: (status: number) => void;
  /** More headers to send, e.g. a tied request's tie id (signed on the fast path). */
  headers?: Readonly<Record<string, string>>;
  /**
   * An error answer's body counts in `bytes` (it is otherwise 0): an attempt of a hedged or
   * tied request that loses with an error moved that body over the wire, and the hedge cost
   * counts it as wasted, as it counts a cancelled loser's bytes.
   */
  countErrorBody?: boolean;
}

/** Bytes `start` to `endInclusive` of an object, both counted from 0 (HTTP's `bytes=a-b`). */
export interface ByteRange {
  start: number;
  endInclusive: number;
}

export interface GetOptions extends RequestOptions {
  /**
   * Hash the body while reading it and check size + MD5; a mismatch is "ContentMismatch". For a
   * ranged GET, the expectation of the slice.
   */
  expect?: GetExpectation;
  /** Sends `Range: bytes=start-endInclusive`; the answer must be 206 (else "RangeIgnored"). */
  range?: ByteRange;
}

/** One ListObjectsV2 page. */
export interface ListObjectsQuery {
  prefix?: string;
  /** The server's default (1000) when absent. */
  maxKeys?: number;
  /** The previous page's nextContinuationToken. */
  continuationToken?: string;
}

export interface ListObjectsOutcome extends RequestOutcome {
  /** Keys on this page (the response's KeyCount); 0 on failure. */
  keyCount: number;
  /** Set when the listing goes on (IsTruncated); null on the last page and on failure. */
  nextContinuationToken: string | null;
}

export interface ListBucketsOutcome extends RequestOutcome {
  /** Buckets listed; 0 on failure. */
  bucketCount: number;
}

export interface CreateMultipartUploadOutcome extends RequestOutcome {
  /** null on failure, or when a 2xx answer carried none. */
  uploadId: string | null;
}

/** UploadPart and CompleteMultipartUpload. */
export interface EtagOutcome extends RequestOutcome {
  /**
   * The ETag as the server sent it, quotes included (`"…"`, `"…-3"` for a three-part object):
   * what CompleteMultipartUpload wants back. null on failure or when none came.
   */
  etag: string | null;
}

export interface CompletedPart {
  partNumber: number;
  /** As returned by uploadPart. */
  etag: string;
}

export interface DeleteObjectsOutcome extends RequestOutcome {
  /**
   * Keys a 200 answer could not delete, with the per-key S3 error Code; when any, the outcome's
   * error is "PartialFailure:" and their distinct codes. Empty when all went, and when the
   * whole request failed.
   */
  keyErrors: { key: string; code: string }[];
}

/**
 * Each operation's methods (operations/*.ts, made by each transport from the registry), and
 * close. Request failures are returned as outcomes, never thrown; only programmer errors throw
 * (an empty key, a malformed target).
 */
export interface ObjectTransport extends OperationMethods {
  /** Waits for requests in flight, then closes the connections. */
  close(): Promise<void>;
}

export function createTransport(
  kind: TransportKind,
  target: TransportTarget,
  clock: MicrosClock,
): ObjectTransport {
  switch (kind) {
    case "fast":
      return createFastTransport(target, clock);
    case "sdk":
      return createSdkTransport(target, clock);
    default:
      throw new Error(`createTransport: unknown transport kind "${String(kind)}"`);
  }
}
