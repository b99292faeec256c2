/**
 * The engine's S3 data path: PUT, GET and DELETE of single objects, timed, behind one interface
 * with two implementations.
 *
 * - `fast` (fast-transport.ts) — the hot path. One undici Pool per endpoint, SigV4 by aws4 with an
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
 * Both produce identical outcomes (status, error code, byte count) for the same requests; a test
 * runs one script through both and compares. The control plane (bucket creation, preflight,
 * listing, bulk delete) is in control-plane.ts and always uses the SDK.
 */
import type { TransportKind } from "@taillab/api";
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
}

/** Microseconds since the run started, supplied by the caller so every thread shares one time base. */
export type MicrosClock = () => number;

export interface RequestOutcome {
  /** Before the request is built and signed: client-side work counts towards latency. */
  startUs: number;
  /** Response headers received (equals endUs when there was no response). */
  firstByteUs: number;
  /** Body fully read (and verified, when asked), or the failure. */
  endUs: number;
  /** 0 when no HTTP response arrived. */
  status: number;
  /**
   * null on success. Otherwise: the S3 error Code from the XML body (NoSuchKey…); for bodiless
   * error responses a code from the status ("NotFound", "Forbidden", "HTTP503"); for failures
   * without a response the Node/undici code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…);
   * "Aborted" when the caller's signal aborted; "ContentMismatch" when a verified GET got other
   * bytes than expected.
   */
  error: string | null;
  /**
   * Payload bytes moved: for PUT the body size once the server answered 2xx (0 otherwise); for GET
   * the body bytes of a 2xx response actually received (possibly partial when aborted); 0 for
   * DELETE and for error responses.
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
   * its twin here. (The SDK path learns of error responses only once it has parsed them.)
   */
  onResponse?: (status: number) => void;
}

export interface GetOptions extends RequestOptions {
  /** Hash the body while reading it and check size + MD5; a mismatch is "ContentMismatch". */
  expect?: GetExpectation;
}

/**
 * Request failures are returned as outcomes, never thrown; only programmer errors throw (an
 * empty key, a malformed target).
 */
export interface ObjectTransport {
  putObject(key: string, body: Uint8Array, options?: RequestOptions): Promise<RequestOutcome>;
  /** Always reads the whole body, so the next request on the connection is not held up. */
  getObject(key: string, options?: GetOptions): Promise<RequestOutcome>;
  deleteObject(key: string, options?: RequestOptions): Promise<RequestOutcome>;
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
