import { S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import type { HttpAuthScheme } from "@smithy/types";
import { PiecewiseSha256 } from "./hash-in-pieces.ts";
import type { TransportTarget } from "./object-transport.ts";
import { parseEndpointUrl, requestTimeoutOf, tlsConnectOptions } from "./transport-target.ts";
import { UndiciHttpHandler } from "./undici-http-handler.ts";

export interface TargetS3Client {
  client: S3Client;
  /** The handler under the client; close() it to wait for its connections to close. */
  handler: UndiciHttpHandler;
}

const NO_AUTH = "smithy.api#noAuth";

/** Sends requests as they are: for anonymous access (target.credentials === null). */
const anonymousAuthScheme: HttpAuthScheme = {
  schemeId: NO_AUTH,
  identityProvider: () => async () => ({}),
  signer: { sign: async (request) => request },
};

/**
 * An S3Client for a target, configured to measure rather than to hide: one attempt (no silent
 * retries), checksums only where an operation requires one (several S3-compatible servers reject
 * the SDK's default CRC32 headers), no `Expect: 100-continue` round trip, undici connections to
 * the endpoint's own address whatever the addressing (as the fast path: `bucket.localhost` needs
 * no DNS name), the target's request timeout and TLS settings, and a SHA-256 that takes objects
 * of 2 GiB and more.
 */
export function createTargetS3Client(
  target: TransportTarget,
  options: { connectTimeoutMs?: number } = {},
): TargetS3Client {
  const url = parseEndpointUrl(target.url);
  const tls = tlsConnectOptions(target);
  const handler = new UndiciHttpHandler({
    maxConnections: target.maxConnections,
    requestTimeoutMs: requestTimeoutOf(target),
    origin: url.origin,
    ...(tls ? { tls } : {}),
    ...options,
  });
  const config: S3ClientConfig = {
    endpoint: target.url,
    region: target.region,
    forcePathStyle: target.addressing === "path",
    requestHandler: handler,
    maxAttempts: 1,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    expectContinueHeader: false,
    followRegionRedirects: false,
    sha256: PiecewiseSha256,
    ...(target.credentials === null
      ? {
          httpAuthSchemes: [anonymousAuthScheme],
          httpAuthSchemeProvider: () => [{ schemeId: NO_AUTH }],
        }
      : {
          credentials: {
            accessKeyId: target.credentials.accessKeyId,
            secretAccessKey: target.credentials.secretAccessKey,
            ...(target.credentials.sessionToken
              ? { sessionToken: target.credentials.sessionToken }
              : {}),
          },
        }),
  };
  return { client: new S3Client(config), handler };
}
