import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import { createBodyVerifier } from "./body-verifier.ts";
import type {
  MicrosClock,
  RequestOptions,
  ObjectTransport,
  RequestOutcome,
  TransportTarget,
} from "./object-transport.ts";
import { readBody } from "./response-body.ts";
import { createTargetS3Client } from "./s3-client.ts";
import { sdkErrorOutcome } from "./sdk-error.ts";
import { assertObjectKey, resolveTargetAddress } from "./transport-target.ts";

/**
 * The same three operations through @aws-sdk/client-s3 (on the undici handler). `send` resolves
 * when the response headers have arrived and, for GetObject, leaves the body to be read here, so
 * firstByteUs means the same thing as on the fast path.
 */
export function createSdkTransport(target: TransportTarget, clock: MicrosClock): ObjectTransport {
  resolveTargetAddress(target);
  const { client, handler } = createTargetS3Client(target);
  const Bucket = target.bucket;

  function failed(
    startUs: number,
    firstByteUs: number,
    error: unknown,
    { signal, onResponse }: RequestOptions,
    bytes: number,
    responseStatus = 0,
  ): RequestOutcome {
    const endUs = clock();
    const { status, code } = sdkErrorOutcome(error, signal, responseStatus);
    if (status > 0 && responseStatus === 0) onResponse?.(status);
    return {
      startUs,
      firstByteUs: firstByteUs < 0 ? endUs : firstByteUs,
      endUs,
      status,
      error: code,
      bytes: status >= 300 ? 0 : bytes,
    };
  }

  return {
    async putObject(key, body, options = {}) {
      const { signal, onResponse } = options;
      const startUs = clock();
      assertObjectKey(key);
      if (signal?.aborted) return failed(startUs, -1, null, options, 0);
      try {
        const output = await client.send(
          new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.byteLength }),
          { abortSignal: signal },
        );
        const endUs = clock();
        const status = output.$metadata.httpStatusCode ?? 200;
        onResponse?.(status);
        return { startUs, firstByteUs: endUs, endUs, status, error: null, bytes: body.byteLength };
      } catch (error) {
        return failed(startUs, -1, error, options, 0);
      }
    },

    async getObject(key, options = {}) {
      const { signal, expect, onResponse } = options;
      const startUs = clock();
      assertObjectKey(key);
      if (signal?.aborted) return failed(startUs, -1, null, options, 0);
      let firstByteUs = -1;
      let status = 0;
      let bytes = 0;
      try {
        const output = await client.send(new GetObjectCommand({ Bucket, Key: key }), {
          abortSignal: signal,
        });
        firstByteUs = clock();
        status = output.$metadata.httpStatusCode ?? 200;
        onResponse?.(status);
        const verifier = expect ? createBodyVerifier(expect) : null;
        if (output.Body) {
          await readBody(output.Body as Readable, (chunk) => {
            bytes += chunk.length;
            verifier?.update(chunk);
          });
        }
        const error = verifier && !verifier.matches(bytes) ? "ContentMismatch" : null;
        return { startUs, firstByteUs, endUs: clock(), status, error, bytes };
      } catch (error) {
        return failed(startUs, firstByteUs, error, options, bytes, status);
      }
    },

    async deleteObject(key, options = {}) {
      const { signal, onResponse } = options;
      const startUs = clock();
      assertObjectKey(key);
      if (signal?.aborted) return failed(startUs, -1, null, options, 0);
      try {
        const output = await client.send(new DeleteObjectCommand({ Bucket, Key: key }), {
          abortSignal: signal,
        });
        const endUs = clock();
        const status = output.$metadata.httpStatusCode ?? 204;
        onResponse?.(status);
        return { startUs, firstByteUs: endUs, endUs, status, error: null, bytes: 0 };
      } catch (error) {
        return failed(startUs, -1, error, options, 0);
      }
    },

    async close() {
      await handler.close();
      client.destroy();
    },
  };
}
