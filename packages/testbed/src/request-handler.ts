/**
 * One request from arrival to response: route, authenticate, intercept, run, answer. Also keeps
 * the counters of stats(). This is the path the load generator measures, so it does little and
 * allocates little: no AbortController without an interceptor, no query parsing without a query.
 */
import { MAX_OBJECT_SIZE_BYTES, TIE_ID_HEADER } from "@taillab/api";
import { hash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { headerText } from "./http-headers.ts";
import type { ObjectStore } from "./object-store.ts";
import { intercept, type RequestInterceptor } from "./request-interceptor.ts";
import { S3Error } from "./s3-error.ts";
import { runOperation } from "./operations/registry.ts";
import type { S3Response } from "./operations/testbed-operation.ts";
import { parseTarget, resolveOperation, type RequestTarget } from "./s3-route.ts";
import { errorXml, XML_CONTENT_TYPE } from "./s3-xml.ts";
import type { SigV4Verifier } from "./sigv4-verifier.ts";

export interface TestbedStats {
  /** Requests whose headers arrived. */
  received: number;
  /** Requests answered in full (errors and injected faults included). */
  completed: number;
  /** Requests whose client closed the connection before the response was finished. */
  aborted: number;
  /** Connections reset by an injected `resetConnection` fault. */
  resets: number;
  /**
   * Requests that began service (with a latency profile: got their slot, and were not dropped
   * as a tied twin): the work the replica did, losers of hedged and tied requests included.
   */
  served: number;
  /** Tied copies dropped because their twin started on another replica first. */
  tiesDropped: number;
  /** Requests per S3 operation, counted once routed and authenticated. */
  byOperation: Record<string, number>;
}

export interface RequestHandlerOptions {
  store: ObjectStore;
  region: string;
  /** Multipart uploads: the least size of every part but the last. */
  minPartSizeBytes: number;
  /** Host-name suffixes that put the bucket in the Host header, e.g. ".localhost". */
  virtualHostSuffixes: readonly string[];
  verify: SigV4Verifier | undefined;
  /** Asked per request, so a latency profile can change while the server runs. */
  interceptor: () => RequestInterceptor | undefined;
  stats: TestbedStats;
  /** The Date header's distance from this machine's clock; 0 leaves it to Node. */
  clockSkewMs: number;
}

const SERVER_NAME = "TailLab-testbed";
/**
 * Microseconds from the arrival of the request's headers to the writing of the response's:
 * the server's own time, injected delay and queueing included. A client's latency minus this is
 * what the client and the network (loopback) add.
 */
export const SERVICE_TIME_HEADER = "x-taillab-service-time-us";
const EMPTY_SHA256 = hash("sha256", "", "hex");

/** The answer with its body's first byte flipped; a copy, so the stored object stays intact. */
function corrupted(answer: S3Response): S3Response {
  if (!Buffer.isBuffer(answer.body) || answer.body.length === 0) return answer;
  const body = Buffer.from(answer.body);
  body[0] = (body[0] as number) ^ 0xff;
  return { ...answer, body };
}

interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  headers?: Readonly<Record<string, string>>;
}

function readBody(request: IncomingMessage, expectedSha256: string | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = request.headers["content-length"];
    const declaredBytes = declared === undefined ? null : Number(declared);
    // S3's largest PUT and largest part; it also bounds the buffer made for the declared length.
    if (declaredBytes !== null && declaredBytes > MAX_OBJECT_SIZE_BYTES) {
      reject(
        new S3Error(
          "EntityTooLarge",
          `Your proposed upload exceeds the maximum allowed size of ${MAX_OBJECT_SIZE_BYTES} bytes`,
        ),
      );
      return;
    }
    // A body of known length is copied into its one buffer as it arrives: gathering the chunks
    // and joining them at the end held every object twice (10 GiB for a 5 GiB PUT). Joined or
    // copied, a stored object never pins the socket's read buffers.
    const whole = declaredBytes === null ? null : Buffer.allocUnsafe(declaredBytes);
    const chunks: Buffer[] = [];
    let length = 0;
    request.on("data", (chunk: Buffer) => {
      if (whole) chunk.copy(whole, length);
      else chunks.push(chunk);
      length += chunk.length;
    });
    request.once("error", reject);
    request.once("end", () => {
      const body = whole ?? Buffer.concat(chunks, length);
      if (expectedSha256 === undefined) {
        resolve(body);
        return;
      }
      const sha256 = length === 0 ? EMPTY_SHA256 : hash("sha256", body, "hex");
      if (sha256 === expectedSha256) {
        resolve(body);
        return;
      }
      reject(
        new S3Error(
          "XAmzContentSHA256Mismatch",
          `The provided x-amz-content-sha256 header does not match what was computed: ${sha256}`,
        ),
      );
    });
  });
}

function resourceOf(target: RequestTarget | undefined, url: string): string {
  if (target === undefined) return url;
  if (target.bucket === null) return "/";
  return target.key === null ? `/${target.bucket}` : `/${target.bucket}/${target.key}`;
}

export function createRequestHandler(
  options: RequestHandlerOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  const { store, region, minPartSizeBytes, virtualHostSuffixes, verify, stats, clockSkewMs } =
    options;
  const currentInterceptor = options.interceptor;
  const context = { store, region, minPartSizeBytes };
  // Request ids differ across testbeds in one process, which helps when reading mixed logs.
  const requestIdPrefix = randomBytes(4).toString("hex").toUpperCase();
  let requestCount = 0;

  function send(
    response: ServerResponse,
    method: string,
    requestId: string,
    arrivedAt: number,
    answer: S3Response,
  ): void {
    if (response.destroyed) return;
    const headers = answer.headers;
    headers.Server = SERVER_NAME;
    headers["x-amz-request-id"] = requestId;
    const body = method === "HEAD" ? undefined : answer.body;
    if (body !== undefined) headers["Content-Length"] = Buffer.byteLength(body);
    else if (!("Content-Length" in headers)) headers["Content-Length"] = 0;
    headers[SERVICE_TIME_HEADER] = Math.round((performance.now() - arrivedAt) * 1000);
    if (clockSkewMs !== 0) headers.Date = new Date(Date.now() + clockSkewMs).toUTCString();
    response.writeHead(answer.status, headers);
    response.end(body);
  }

  function sendError(
    response: ServerResponse,
    method: string,
    requestId: string,
    arrivedAt: number,
    resource: string,
    error: ErrorAnswer,
  ): void {
    send(response, method, requestId, arrivedAt, {
      status: error.status,
      headers: { "Content-Type": XML_CONTENT_TYPE, ...error.headers },
      body: errorXml({ code: error.code, message: error.message, resource, requestId }),
    });
  }

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    arrivedAt: number,
    interceptor: RequestInterceptor | undefined,
    signal: AbortSignal | undefined,
    onReset: () => void,
  ): Promise<void> {
    const method = request.method ?? "GET";
    const url = request.url ?? "/";
    let target: RequestTarget | undefined;
    try {
      const { headers } = request;
      target = parseTarget(url, headers.host, virtualHostSuffixes);
      const payloadHash = headerText(headers, "x-amz-content-sha256");
      if (payloadHash?.startsWith("STREAMING-")) {
        throw new S3Error(
          "NotImplemented",
          `The testbed does not accept aws-chunked uploads (x-amz-content-sha256: ${payloadHash}); send the body in one piece, e.g. with requestChecksumCalculation: "WHEN_REQUIRED"`,
        );
      }
      const expectedSha256 = verify?.(
        { method, rawPath: target.rawPath, rawQuery: target.rawQuery, headers },
        target.query,
      ).expectedPayloadSha256;
      const operation = resolveOperation(method, target, headers);
      stats.byOperation[operation] = (stats.byOperation[operation] ?? 0) + 1;

      let corrupt = false;
      if (interceptor === undefined || signal === undefined) {
        stats.served++;
      } else {
        const { bucket, key } = target;
        const tieId = headerText(headers, TIE_ID_HEADER) ?? null;
        const outcome = await intercept(interceptor, {
          method,
          operation,
          bucket,
          key,
          signal,
          tieId,
        });
        if (outcome === "client-gone") return;
        if (typeof outcome === "object" && "resetConnection" in outcome) {
          onReset();
          request.socket.resetAndDestroy();
          return;
        }
        if (typeof outcome === "object") {
          sendError(response, method, requestId, arrivedAt, resourceOf(target, url), outcome);
          return;
        }
        corrupt = outcome === "run-corrupted";
      }

      const answer = await runOperation(
        operation,
        { target, headers, readBody: () => readBody(request, expectedSha256) },
        context,
      );
      send(response, method, requestId, arrivedAt, corrupt ? corrupted(answer) : answer);
    } catch (error) {
      const answer: ErrorAnswer =
        error instanceof S3Error
          ? error
          : { status: 500, code: "InternalError", message: `The testbed failed: ${String(error)}` };
      sendError(response, method, requestId, arrivedAt, resourceOf(target, url), answer);
    }
  }

  return (request, response) => {
    const arrivedAt = performance.now();
    stats.received++;
    const requestId = `${requestIdPrefix}${(++requestCount).toString(16).toUpperCase().padStart(8, "0")}`;
    const interceptor = currentInterceptor();
    const controller = interceptor === undefined ? undefined : new AbortController();
    let reset = false;
    response.once("close", () => {
      if (response.writableFinished) stats.completed++;
      else if (reset) stats.resets++;
      else {
        stats.aborted++;
        controller?.abort();
      }
    });
    handle(request, response, requestId, arrivedAt, interceptor, controller?.signal, () => {
      reset = true;
    }).catch(() => {
      // Only answering can fail here (e.g. an interceptor's invalid status); cut the connection.
      response.destroy();
    });
  };
}
