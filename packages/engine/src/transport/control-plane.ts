import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type HeadBucketCommandInput,
  type HeadBucketCommandOutput,
  type S3Client,
} from "@aws-sdk/client-s3";
import { ABORTED_ERROR, coded, TIMEOUT_ERROR, type CodedMessage } from "@taillab/api";
import { S3_MAX_DELETE_KEYS } from "@taillab/core";
import { HttpResponse } from "@smithy/protocol-http";
import type { DeserializeMiddleware } from "@smithy/types";
import { addContentMd5 } from "./content-md5-middleware.ts";
import { EndpointError, type EndpointErrorField } from "./endpoint-error.ts";
import type { TransportTarget } from "./object-transport.ts";
import { createTargetS3Client } from "./s3-client.ts";
import {
  ENDLESS_LISTING_CODE,
  LISTING_LIMITS,
  ListingBounds,
  type EndlessListing,
  type ListingLimits,
} from "./listing-bounds.ts";
import { sdkErrorOutcome } from "./sdk-error.ts";
import { requestTimeoutOf } from "./transport-target.ts";

/**
 * Bucket-level calls around a run: preflight, bucket creation, listing and bulk cleanup. Not on
 * the hot path, so it always goes through the SDK (its XML handling and pagination are worth it
 * here). Failures a user can fix are thrown as EndpointError. Every call is bounded by the
 * target's request timeout, and a removal stops at the first call that got no answer at all
 * (refused, reset, timed out): the rest is reported left with that code rather than each waiting
 * as long, so a cleanup against a server that stopped answering ends within one timeout.
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
   * DeleteObjects in batches of 1000, taken from `keys` as they go (a long run's keys can be
   * made one at a time rather than held). Failures are reported per key, never thrown: a
   * cleanup does what it can and says what is left. A failed batch reports each of its keys.
   */
  deleteKeys(keys: Iterable<string>): Promise<RemovalResult>;
  /**
   * Every key under `prefix` (paginated ListObjectsV2), in the server's (lexicographic) order.
   * Only keys that start with `prefix` are returned, whatever the server answers. A listing that
   * goes round in circles or does not end within LISTING_LIMITS throws an EndpointError with
   * code EndlessListing.
   */
  listKeys(prefix: string): Promise<string[]>;
  /**
   * Open multipart uploads of keys under `prefix`: the bucket's uploads (paginated
   * ListMultipartUploads, bounded as listKeys), those whose key starts with `prefix` kept.
   */
  listUploads(prefix: string): Promise<OpenUpload[]>;
  /** AbortMultipartUpload of each; failures reported by key, never thrown. */
  abortUploads(uploads: readonly OpenUpload[]): Promise<RemovalResult>;
  /** The endpoint's buckets (ListBuckets) whose names `match` accepts. */
  listBuckets(match: (name: string) => boolean): Promise<string[]>;
  /** DeleteBucket of each (they must be empty); failures reported by name, never thrown. */
  deleteBuckets(names: readonly string[]): Promise<RemovalResult>;
  /** The endpoint's Server response header, or null when it sends none or cannot be reached. */
  serverHeader(): Promise<string | null>;
  /**
   * Whether the server answers now, asked once after it stopped answering: ListObjectsV2
   * (MaxKeys 1, under `prefix`: the run's own keys) with a deadline of `probeTimeoutMs`. Any HTTP answer, an error status included,
   * is an answer: null. Otherwise the failure's code (ClientTimeout at the deadline, Aborted
   * when `signal` stopped it first).
   */
  probe(prefix: string, signal?: AbortSignal): Promise<string | null>;
  /** The probe's deadline: PROBE_TIMEOUT_MS, or the request timeout when that is shorter. */
  readonly probeTimeoutMs: number;
  close(): Promise<void>;
}

/** What a removal did: how many went, and each one left with the error code that kept it. */
export interface RemovalResult {
  removed: number;
  /** A key, an upload's key or a bucket name, with the S3 or transport code. */
  failures: { name: string; code: string }[];
  /** It stopped at a call that got no answer at all: the server is not answering now. */
  unanswered: boolean;
}

export interface OpenUpload {
  key: string;
  uploadId: string;
}

const PREFLIGHT_TIMEOUT_MS = 5_000;
/** A few seconds: a server that answers at all answers a one-key listing well within them. */
export const PROBE_TIMEOUT_MS = 5_000;

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
  // versitygw's answer for an access key it does not know.
  "XAdminUserNotFound",
]);
/** Error codes that usually mean the endpoint's region is set wrong. */
const REGION_CODES = new Set([
  "AuthorizationHeaderMalformed",
  "PermanentRedirect",
  "IllegalLocationConstraintException",
  "InvalidRegion",
]);

/**
 * `listingLimits` bounds each listing (LISTING_LIMITS by default; a test may lower them).
 */
export function createControlPlane(
  target: TransportTarget,
  listingLimits: ListingLimits = LISTING_LIMITS,
): ControlPlane {
  const { client, handler } = createTargetS3Client(target, {
    connectTimeoutMs: PREFLIGHT_TIMEOUT_MS,
  });
  const Bucket = target.bucket;
  const timeoutSeconds = requestTimeoutOf(target) / 1000;
  const probeTimeoutMs = Math.min(PROBE_TIMEOUT_MS, requestTimeoutOf(target));

  /** An SDK failure as an EndpointError a user can act on. */
  function explain(error: unknown, doing: CodedMessage, timeout?: AbortSignal): EndpointError {
    const { status, code } = sdkErrorOutcome(error, undefined);
    const fail = (field: EndpointErrorField, failure: string, detail: CodedMessage) =>
      new EndpointError(field, failure, target.url, detail, {
        cause: error,
        unanswered: status === 0,
      });
    if (timeout?.aborted) {
      return fail(
        "endpoint",
        "Timeout",
        coded("connectNoAnswer", { seconds: PREFLIGHT_TIMEOUT_MS / 1000 }),
      );
    }
    if (code === TIMEOUT_ERROR) {
      return fail(
        "endpoint",
        code,
        coded("callNoAnswer", { doing, seconds: timeoutSeconds, code }),
      );
    }
    if (status === 0) {
      return fail(
        "endpoint",
        code,
        coded(isTlsCode(code) ? "cannotConnectTls" : "cannotConnect", { code }),
      );
    }
    if (code === "NoSuchBucket") {
      return fail("bucket", code, coded("bucketMissing", { bucket: Bucket, code }));
    }
    if (CREDENTIAL_CODES.has(code)) {
      // Never the key id itself: with env credentials it is a variable's value, and the
      // message reaches run files and whichever page started the run.
      const who = target.credentials === null ? "anonymousRejected" : "keyRejected";
      return fail("credentials", code, coded(who, { code }));
    }
    return fail(
      "endpoint",
      code,
      REGION_CODES.has(code)
        ? coded("callFailedRegion", { doing, code, status, region: target.region })
        : coded("callFailed", { doing, code, status }),
    );
  }

  /** A listing given up: the kind it lists is left unchecked, with this said. */
  function endlessListing(doing: CodedMessage, why: EndlessListing, pages: number): EndpointError {
    const detail =
      why === "repeats"
        ? coded("listingRepeats", { doing, pages, code: ENDLESS_LISTING_CODE })
        : coded("listingTooLong", {
            doing,
            pages,
            seconds: listingLimits.maxMs / 1000,
            code: ENDLESS_LISTING_CODE,
          });
    return new EndpointError("endpoint", ENDLESS_LISTING_CODE, target.url, detail);
  }

  /**
   * Sends one call per item until one gets no answer at all; the items from there on are
   * reported with that code. An item may stand for several names (a batch of keys): `remove`
   * counts what went and reports the names a call answered it could not remove.
   */
  async function removeEach<T>(
    items: Iterable<T>,
    namesOf: (item: T) => readonly string[],
    remove: (item: T, result: RemovalResult) => Promise<void>,
  ): Promise<RemovalResult> {
    const result: RemovalResult = { removed: 0, failures: [], unanswered: false };
    const each = items[Symbol.iterator]();
    for (let next = each.next(); !next.done; next = each.next()) {
      try {
        await remove(next.value, result);
      } catch (error) {
        const { status, code } = sdkErrorOutcome(error, undefined);
        result.unanswered = status === 0;
        const failed = (item: T) => {
          for (const name of namesOf(item)) result.failures.push({ name, code });
        };
        failed(next.value);
        if (!result.unanswered) continue;
        for (let rest = each.next(); !rest.done; rest = each.next()) failed(rest.value);
        break;
      }
    }
    return result;
  }

  return {
    async checkAccess() {
      const timeout = AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS);
      try {
        await client.send(new ListObjectsV2Command({ Bucket, MaxKeys: 1 }), {
          abortSignal: timeout,
        });
      } catch (error) {
        throw explain(error, coded("doingListBucket", { bucket: Bucket }), timeout);
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
            target.url,
            coded("bucketTaken", { bucket: Bucket, code }),
            { cause: error },
          );
        }
        throw explain(error, coded("doingCreateBucket", { bucket: Bucket }));
      }
    },

    deleteKeys(keys) {
      return removeEach(
        batchesOf(keys, S3_MAX_DELETE_KEYS),
        (batch) => batch,
        async (batch, result) => {
          const command = new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          });
          command.middlewareStack.add(addContentMd5, { step: "build", priority: "low" });
          const output = await client.send(command);
          const failed = output.Errors ?? [];
          for (const failure of failed) {
            result.failures.push({ name: failure.Key ?? "", code: failure.Code ?? "Unknown" });
          }
          result.removed += batch.length - failed.length;
        },
      );
    },

    async listKeys(prefix) {
      const doing = coded("doingListBucket", { bucket: Bucket });
      const bounds = new ListingBounds(listingLimits);
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      for (;;) {
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
          throw explain(error, doing);
        }
        const listed = (page.Contents ?? []).flatMap(({ Key }) => (Key === undefined ? [] : [Key]));
        // A server may ignore the prefix: what is not under it is never handed on.
        for (const key of listed) if (key.startsWith(prefix)) keys.push(key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        if (!ContinuationToken) return keys;
        const endless = bounds.next(ContinuationToken, listed);
        if (endless) throw endlessListing(doing, endless, bounds.pageCount);
      }
    },

    async listUploads(prefix) {
      // Listed without the prefix and picked here: MinIO answers nothing for a prefix that is
      // not a whole key, and a server may ignore the prefix anyway.
      const doing = coded("doingListUploads", { bucket: Bucket });
      const bounds = new ListingBounds(listingLimits);
      const uploads: OpenUpload[] = [];
      // ListMultipartUploads pages by key and upload id markers together.
      let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
      for (;;) {
        let page;
        try {
          page = await client.send(new ListMultipartUploadsCommand({ Bucket, ...markers }));
        } catch (error) {
          throw explain(error, doing);
        }
        for (const { Key: key, UploadId: uploadId } of page.Uploads ?? []) {
          if (key?.startsWith(prefix) && uploadId !== undefined) uploads.push({ key, uploadId });
        }
        if (!page.IsTruncated) return uploads;
        markers = {
          ...(page.NextKeyMarker ? { KeyMarker: page.NextKeyMarker } : {}),
          ...(page.NextUploadIdMarker ? { UploadIdMarker: page.NextUploadIdMarker } : {}),
        };
        const endless = bounds.next(`${markers.KeyMarker ?? ""}\n${markers.UploadIdMarker ?? ""}`);
        if (endless) throw endlessListing(doing, endless, bounds.pageCount);
      }
    },

    abortUploads: (uploads) =>
      removeEach(
        uploads,
        (upload) => [upload.key],
        async ({ key, uploadId }, result) => {
          try {
            await client.send(
              new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }),
            );
          } catch (error) {
            // Already ended (completed or aborted since it was listed): nothing is left of it.
            if (sdkErrorOutcome(error, undefined).code !== "NoSuchUpload") throw error;
          }
          result.removed += 1;
        },
      ),

    async listBuckets(match) {
      let page;
      try {
        page = await client.send(new ListBucketsCommand({}));
      } catch (error) {
        throw explain(error, coded("doingListBuckets"));
      }
      return (page.Buckets ?? []).flatMap(({ Name }) =>
        Name !== undefined && match(Name) ? [Name] : [],
      );
    },

    deleteBuckets: (names) =>
      removeEach(
        names,
        (name) => [name],
        async (name, result) => {
          try {
            await client.send(new DeleteBucketCommand({ Bucket: name }));
          } catch (error) {
            // Gone since it was listed (or never made, when the name was only reserved).
            if (sdkErrorOutcome(error, undefined).code !== "NoSuchBucket") throw error;
          }
          result.removed += 1;
        },
      ),

    serverHeader: () => readServerHeader(client, Bucket),

    probeTimeoutMs,
    async probe(prefix, signal) {
      const deadline = AbortSignal.timeout(probeTimeoutMs);
      const abortSignal = signal ? AbortSignal.any([signal, deadline]) : deadline;
      try {
        const listing = new ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: 1 });
        await client.send(listing, { abortSignal });
        return null;
      } catch (error) {
        if (signal?.aborted) return ABORTED_ERROR;
        if (deadline.aborted) return TIMEOUT_ERROR;
        const { status, code } = sdkErrorOutcome(error, undefined);
        return status > 0 ? null : code;
      }
    },

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

/** Whether TLS refused the server's certificate (then trusting its CA, or no check, helps). */
function isTlsCode(code: string): boolean {
  return /^(ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code);
}

/** `items` in arrays of `size` (the last one shorter), made as they are asked for. */
function* batchesOf<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
