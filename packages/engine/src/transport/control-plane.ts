import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  type HeadBucketCommandInput,
  type HeadBucketCommandOutput,
  type S3Client,
} from "@aws-sdk/client-s3";
import { HttpResponse } from "@smithy/protocol-http";
import type { DeserializeMiddleware } from "@smithy/types";
import { addContentMd5 } from "./content-md5-middleware.ts";
import { EndpointError } from "./endpoint-error.ts";
import type { TransportTarget } from "./object-transport.ts";
import { createTargetS3Client } from "./s3-client.ts";
import { sdkErrorOutcome } from "./sdk-error.ts";

/**
 * Bucket-level calls around a run: preflight, bucket creation, listing and bulk cleanup. Not on
 * the hot path, so it always goes through the SDK (its XML handling and pagination are worth it
 * here). Failures a user can fix are thrown as EndpointError.
 */
export interface ControlPlane {
  /**
   * Preflight before a run: ListObjectsV2 (MaxKeys 1) on the bucket, with a 5 s deadline.
   * Throws EndpointError naming the endpoint, the credentials or the bucket.
   */
  checkAccess(): Promise<void>;
  /** Creates the bucket; succeeds when it already exists and is ours. */
  createBucket(): Promise<void>;
  /**
   * DeleteObjects in batches of 1000. Failures are reported per key, never thrown: a cleanup
   * does what it can and says what is left. A failed batch reports each of its keys.
   */
  deleteKeys(keys: readonly string[]): Promise<DeleteKeysResult>;
  /** Every key under `prefix` (paginated ListObjectsV2), in the server's (lexicographic) order. */
  listKeys(prefix: string): Promise<string[]>;
  /** The endpoint's Server response header, or null when it sends none or cannot be reached. */
  serverHeader(): Promise<string | null>;
  close(): Promise<void>;
}

export interface DeleteKeysResult {
  deleted: number;
  errors: { key: string; code: string }[];
}

const PREFLIGHT_TIMEOUT_MS = 5_000;
const DELETE_BATCH_KEYS = 1_000;

/** Error codes meaning "these credentials may not do this". */
const CREDENTIAL_CODES = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "AccessDenied",
  "InvalidToken",
  "ExpiredToken",
  "TokenRefreshRequired",
  "InvalidSecurity",
  "AllAccessDisabled",
  "Forbidden",
]);
/** Error codes that usually mean the endpoint's region is set wrong. */
const REGION_CODES = new Set([
  "AuthorizationHeaderMalformed",
  "PermanentRedirect",
  "IllegalLocationConstraintException",
  "InvalidRegion",
]);

export function createControlPlane(target: TransportTarget): ControlPlane {
  const { client, handler } = createTargetS3Client(target, {
    connectTimeoutMs: PREFLIGHT_TIMEOUT_MS,
  });
  const Bucket = target.bucket;
  const endpoint = `endpoint ${target.url}`;

  /** An SDK failure as an EndpointError a user can act on. */
  function explain(error: unknown, doing: string, timeout?: AbortSignal): EndpointError {
    if (timeout?.aborted) {
      return new EndpointError(
        "endpoint",
        "Timeout",
        `${endpoint}: cannot connect (no answer within ${PREFLIGHT_TIMEOUT_MS / 1000} s)`,
        { cause: error },
      );
    }
    const { status, code } = sdkErrorOutcome(error, undefined);
    if (status === 0) {
      return new EndpointError("endpoint", code, `${endpoint}: cannot connect (${code})`, {
        cause: error,
      });
    }
    if (code === "NoSuchBucket") {
      return new EndpointError(
        "bucket",
        code,
        `${endpoint}: bucket "${Bucket}" does not exist (${code}); create it or pass --create-bucket`,
        { cause: error },
      );
    }
    if (CREDENTIAL_CODES.has(code)) {
      // Never the key id itself: with env credentials it is a variable's value, and the
      // message reaches run files and whichever page started the run.
      const who = target.credentials === null ? "anonymous access" : "the access key";
      return new EndpointError("credentials", code, `${endpoint}: ${who} was rejected (${code})`, {
        cause: error,
      });
    }
    const hint = REGION_CODES.has(code) ? `; check the region (now "${target.region}")` : "";
    return new EndpointError(
      "endpoint",
      code,
      `${endpoint}: ${doing} failed (${code}, HTTP ${status})${hint}`,
      { cause: error },
    );
  }

  return {
    async checkAccess() {
      const timeout = AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS);
      try {
        await client.send(new ListObjectsV2Command({ Bucket, MaxKeys: 1 }), {
          abortSignal: timeout,
        });
      } catch (error) {
        throw explain(error, `listing bucket "${Bucket}"`, timeout);
      }
    },

    async createBucket() {
      const inDefaultRegion = target.region === "us-east-1";
      try {
        await client.send(
          new CreateBucketCommand({
            Bucket,
            ...(inDefaultRegion
              ? {}
              : { CreateBucketConfiguration: { LocationConstraint: target.region as never } }),
          }),
        );
      } catch (error) {
        const { code } = sdkErrorOutcome(error, undefined);
        if (code === "BucketAlreadyOwnedByYou") return;
        if (code === "BucketAlreadyExists") {
          throw new EndpointError(
            "bucket",
            code,
            `${endpoint}: bucket "${Bucket}" already exists and belongs to another account (${code}); choose another bucket name`,
            { cause: error },
          );
        }
        throw explain(error, `creating bucket "${Bucket}"`);
      }
    },

    async deleteKeys(keys) {
      const result: DeleteKeysResult = { deleted: 0, errors: [] };
      for (let first = 0; first < keys.length; first += DELETE_BATCH_KEYS) {
        const batch = keys.slice(first, first + DELETE_BATCH_KEYS);
        const command = new DeleteObjectsCommand({
          Bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        });
        command.middlewareStack.add(addContentMd5, { step: "build", priority: "low" });
        try {
          const output = await client.send(command);
          const failed = output.Errors ?? [];
          for (const failure of failed) {
            result.errors.push({ key: failure.Key ?? "", code: failure.Code ?? "Unknown" });
          }
          result.deleted += batch.length - failed.length;
        } catch (error) {
          const { code } = sdkErrorOutcome(error, undefined);
          for (const key of batch) result.errors.push({ key, code });
        }
      }
      return result;
    },

    async listKeys(prefix) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        let page;
        try {
          page = await client.send(
            new ListObjectsV2Command({
              Bucket,
              Prefix: prefix,
              ...(ContinuationToken ? { ContinuationToken } : {}),
            }),
          );
        } catch (error) {
          throw explain(error, `listing bucket "${Bucket}"`);
        }
        for (const object of page.Contents ?? [])
          if (object.Key !== undefined) keys.push(object.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },

    serverHeader: () => readServerHeader(client, Bucket),

    async close() {
      await handler.close();
      client.destroy();
    },
  };
}

/** HeadBucket, reading the Server header off the raw response (also of a 403 or 404). */
async function readServerHeader(client: S3Client, Bucket: string): Promise<string | null> {
  let server: string | null = null;
  const captureServer: DeserializeMiddleware<HeadBucketCommandInput, HeadBucketCommandOutput> =
    (next) => async (args) => {
      const result = await next(args);
      if (HttpResponse.isInstance(result.response))
        server = result.response.headers["server"] ?? null;
      return result;
    };
  const command = new HeadBucketCommand({ Bucket });
  // Low priority in the deserialize step: inside the SDK's deserializer, so the raw response is
  // seen before an error status turns it into an exception.
  command.middlewareStack.add(captureServer, { step: "deserialize", priority: "low" });
  try {
    await client.send(command);
  } catch {
    // A 403/404 still carried the header; an unreachable endpoint leaves it null.
  }
  return server;
}
