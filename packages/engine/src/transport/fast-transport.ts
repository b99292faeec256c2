import aws4 from "aws4";
import type { OutgoingHttpHeaders } from "node:http";
import { Pool, type Dispatcher } from "undici";
import { createBodyVerifier } from "./body-verifier.ts";
import type {
  GetOptions,
  RequestOptions,
  MicrosClock,
  ObjectTransport,
  RequestOutcome,
  ResolvedCredentials,
  TransportTarget,
} from "./object-transport.ts";
import { readBody, readErrorCode } from "./response-body.ts";
import { errorCodeFromException } from "./s3-error-code.ts";
import { encodeS3Key } from "./s3-uri-encoding.ts";
import { resolveTargetAddress } from "./transport-target.ts";

/**
 * The hot path: undici Pool + aws4 SigV4, nothing else between the caller and the socket.
 *
 * The payload is signed as UNSIGNED-PAYLOAD (sent as X-Amz-Content-Sha256, which aws4 then uses
 * as the canonical body hash), so a PUT body is never SHA-256 hashed on the client: that hash
 * would cost more CPU than the rest of the request for large objects. S3 and the S3-compatible
 * servers accept UNSIGNED-PAYLOAD over https and plain http alike (the SDK does the same over
 * https; over TLS the body is integrity-protected anyway).
 */
export function createFastTransport(target: TransportTarget, clock: MicrosClock): ObjectTransport {
  const address = resolveTargetAddress(target);
  const pool = new Pool(address.origin, {
    connections: target.maxConnections,
    pipelining: 1,
  });
  const sign = createSigner(target, address.hostHeader);
  const pathFor = (key: string) => address.pathPrefix + encodeS3Key(key);

  async function send(
    method: "PUT" | "GET" | "DELETE",
    key: string,
    body: Uint8Array | null,
    { signal, onResponse, expect }: GetOptions,
  ): Promise<RequestOutcome> {
    const startUs = clock();
    const path = pathFor(key);
    if (signal?.aborted) return failed(startUs, -1, 0, "Aborted", 0);
    let firstByteUs = -1;
    let status = 0;
    let bytes = 0;
    try {
      const response = await pool.request({
        method,
        path,
        headers: sign(method, path),
        body,
        signal: signal ?? null,
      });
      firstByteUs = clock();
      status = response.statusCode;
      onResponse?.(status);
      if (status >= 300) {
        const error = await readErrorCode(response.body, status);
        return { startUs, firstByteUs, endUs: clock(), status, error, bytes: 0 };
      }
      if (method === "GET") {
        const verifier = expect ? createBodyVerifier(expect) : null;
        await readBody(response.body, (chunk) => {
          bytes += chunk.length;
          verifier?.update(chunk);
        });
        const error = verifier && !verifier.matches(bytes) ? "ContentMismatch" : null;
        return { startUs, firstByteUs, endUs: clock(), status, error, bytes };
      }
      await readBody(response.body, noop);
      bytes = body?.byteLength ?? 0;
      return { startUs, firstByteUs, endUs: clock(), status, error: null, bytes };
    } catch (error) {
      const code = signal?.aborted ? "Aborted" : errorCodeFromException(error);
      return failed(startUs, firstByteUs, status, code, status >= 300 ? 0 : bytes);
    }
  }

  function failed(
    startUs: number,
    firstByteUs: number,
    status: number,
    error: string,
    bytes: number,
  ): RequestOutcome {
    const endUs = clock();
    return {
      startUs,
      firstByteUs: firstByteUs < 0 ? endUs : firstByteUs,
      endUs,
      status,
      error,
      bytes,
    };
  }

  return {
    putObject: (key, body, options: RequestOptions = {}) => send("PUT", key, body, options),
    getObject: (key, options = {}) => send("GET", key, null, options),
    deleteObject: (key, options: RequestOptions = {}) => send("DELETE", key, null, options),
    close: () => pool.close(),
  };
}

function noop(): void {}

type Signer = (method: Dispatcher.HttpMethod, path: string) => OutgoingHttpHeaders;

/** Headers for one request; the per-target parts (host, region, keys) are bound once. */
function createSigner(target: TransportTarget, hostHeader: string): Signer {
  const credentials: ResolvedCredentials | null = target.credentials;
  if (credentials === null) return () => ({ Host: hostHeader });
  const awsCredentials = {
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
  };
  return (method, path) =>
    aws4.sign(
      {
        service: "s3",
        region: target.region,
        method,
        path,
        headers: {
          Host: hostHeader,
          "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD",
          "X-Amz-Date": amzDate(),
        },
      },
      awsCredentials,
    ).headers ?? {};
}

let dateSecond = -1;
let dateText = "";

/** The SigV4 timestamp (YYYYMMDDTHHMMSSZ), formatted once per second rather than per request. */
function amzDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toISOString().replace(/[:-]|\.\d{3}/g, "");
  }
  return dateText;
}
