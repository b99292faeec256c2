import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type S3ClientResolvedConfig,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from "@aws-sdk/client-s3";
import { ABORTED_ERROR } from "@taillab/api";
import type { Command, MetadataBearer, MiddlewareStack } from "@smithy/types";
import type { Readable } from "node:stream";
import { createGetBodyCheck } from "./get-body-check.ts";
import { addContentMd5 } from "./content-md5-middleware.ts";
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
  copySourceHeaderValue,
  rangeHeaderValue,
} from "./request-arguments.ts";
import { readBody } from "./response-body.ts";
import { createTargetS3Client } from "./s3-client.ts";
import { errorCodeFromSuccessBody, partialFailureCode } from "./s3-error-code.ts";
import { attachResponseProbe, type ResponseProbe } from "./sdk-response-probe.ts";
import { sdkErrorOutcome } from "./sdk-error.ts";
import { assertBucketName, assertObjectKey, resolveTargetAddress } from "./transport-target.ts";

/**
 * The same operations through @aws-sdk/client-s3 (on the undici handler). Every call carries a
 * response probe (sdk-response-probe.ts) that stamps the headers' arrival, reports them to
 * onResponse and keeps the status as sent, so firstByteUs, onResponse and status mean what they
 * mean on the fast path. GetObject resolves once the headers have arrived and leaves the body to
 * be read here; the other answers are small and read whole by the probe.
 */
export function createSdkTransport(target: TransportTarget, clock: MicrosClock): ObjectTransport {
  resolveTargetAddress(target);
  const { client, handler } = createTargetS3Client(target);
  const Bucket = target.bucket;

  /** What an operation takes from a 2xx answer: its own fields, and an error or bytes if any. */
  interface Reading<T> {
    fields: T;
    error?: string | null;
    bytes?: number;
  }

  /**
   * One SDK call with a probe on its stack. `none` is the operation's fields when it failed;
   * `read` turns the SDK's output for a 2xx answer (and the raw body) into them.
   */
  /** A call whose answer carries nothing but its status (and, for some, an error document). */
  function callPlain<Input extends ServiceInputTypes, Output extends ServiceOutputTypes>(
    command: Command<ServiceInputTypes, Input, ServiceOutputTypes, Output, S3ClientResolvedConfig>,
    options: RequestOptions,
    emptyBodyIsError = false,
  ): Promise<RequestOutcome> {
    return call(
      command,
      (abortSignal) => client.send(command, { abortSignal }),
      options,
      NO_FIELDS,
      nothing,
      { emptyBodyIsError },
    );
  }

  async function call<Input extends object, Output extends MetadataBearer, T extends object>(
    command: { middlewareStack: MiddlewareStack<Input, Output> },
    send: (abortSignal: AbortSignal | undefined) => Promise<Output>,
    options: RequestOptions,
    none: T,
    read: (output: Output, body: Buffer) => Reading<T>,
    /** uploadBytes: the body's size, counted once sent even if no answer came (as the fast path). */
    { emptyBodyIsError = false, uploadBytes = 0 } = {},
  ): Promise<RequestOutcome & T> {
    const { signal, onResponse, headers } = options;
    const probe = attachResponseProbe(command.middlewareStack, clock, onResponse, true, headers);
    if (signal?.aborted) return { ...aborted(probe), ...none };
    try {
      const output = await send(signal);
      const timeline = probe.timing.finish();
      const status = probe.status || (output.$metadata.httpStatusCode ?? 200);
      const body = probe.body ?? Buffer.alloc(0);
      // The SDK spots an error document only when nothing follows </Error>; this is the same
      // test as the fast path's.
      const bodyError = errorCodeFromSuccessBody(body, emptyBodyIsError);
      if (bodyError !== null) {
        return { ...timeline, status, error: bodyError, bytes: 0, ...none };
      }
      const { fields, error = null, bytes = 0 } = read(output, body);
      return { ...timeline, status, error, bytes, ...fields };
    } catch (error) {
      const outcome = failed(probe, error, options);
      const { cancelledWireBytes, bodySent } = probe.timing;
      const bytes =
        cancelledWireBytes ?? (outcome.status === 0 && bodySent ? uploadBytes : outcome.bytes);
      return { ...outcome, bytes, ...none };
    }
  }

  function aborted(probe: ResponseProbe): RequestOutcome {
    return { ...probe.timing.finish(), status: 0, error: ABORTED_ERROR, bytes: 0 };
  }

  function failed(
    probe: ResponseProbe,
    error: unknown,
    { signal, onResponse, countErrorBody }: RequestOptions,
  ): RequestOutcome {
    const { status: sdkStatus, code } = sdkErrorOutcome(error, signal, probe.status);
    if (probe.status === 0 && sdkStatus > 0) onResponse?.(sdkStatus);
    const status = probe.status || sdkStatus;
    return {
      ...probe.timing.finish(),
      status,
      error: code,
      // An error answer's body, when asked (RequestOptions.countErrorBody).
      bytes: countErrorBody && status >= 300 ? probe.timing.receivedBodyBytes : 0,
    };
  }

  const NO_FIELDS = {};
  const nothing = (): Reading<object> => ({ fields: NO_FIELDS });
  const etagOf = (etag: string | undefined) => ({ fields: { etag: etag || null } });

  async function getObject(key: string, options: GetOptions): Promise<RequestOutcome> {
    const { signal, expect, range, onResponse, headers } = options;
    assertObjectKey(key);
    const Range = range ? rangeHeaderValue(range) : undefined;
    const command = new GetObjectCommand({ Bucket, Key: key, ...(Range ? { Range } : {}) });
    const probe = attachResponseProbe(command.middlewareStack, clock, onResponse, false, headers);
    if (signal?.aborted) return aborted(probe);
    const body = createGetBodyCheck({ expect, range });
    try {
      const output = await client.send(command, { abortSignal: signal });
      const status = probe.status || (output.$metadata.httpStatusCode ?? 200);
      if (output.Body) await readBody(output.Body as Readable, (chunk) => body.onChunk(chunk));
      const error = body.verdict(status);
      return { ...probe.timing.finish(), status, error, bytes: body.bytes };
    } catch (error) {
      const outcome = failed(probe, error, options);
      const bytes =
        probe.timing.cancelledWireBytes ?? (outcome.status >= 300 ? outcome.bytes : body.bytes);
      return { ...outcome, bytes };
    }
  }

  return {
    async putObject(key, body, options = {}) {
      assertObjectKey(key);
      const command = new PutObjectCommand({
        Bucket,
        Key: key,
        Body: body,
        ContentLength: body.byteLength,
      });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        NO_FIELDS,
        () => ({ fields: NO_FIELDS, bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      );
    },

    getObject: async (key, options = {}) => getObject(key, options),

    async deleteObject(key, options = {}) {
      assertObjectKey(key);
      const command = new DeleteObjectCommand({ Bucket, Key: key });
      return callPlain(command, options);
    },

    async headObject(key, options = {}) {
      assertObjectKey(key);
      const command = new HeadObjectCommand({ Bucket, Key: key });
      return callPlain(command, options);
    },

    async copyObject(sourceKey, destinationKey, options = {}) {
      assertObjectKey(sourceKey);
      assertObjectKey(destinationKey);
      const command = new CopyObjectCommand({
        Bucket,
        Key: destinationKey,
        CopySource: copySourceHeaderValue(Bucket, sourceKey),
      });
      return callPlain(command, options, true);
    },

    async listObjects({ prefix, maxKeys, continuationToken }, options = {}) {
      assertMaxKeys(maxKeys);
      const command = new ListObjectsV2Command({
        Bucket,
        ...(prefix === undefined ? {} : { Prefix: prefix }),
        ...(maxKeys === undefined ? {} : { MaxKeys: maxKeys }),
        ...(continuationToken === undefined ? {} : { ContinuationToken: continuationToken }),
      });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        { keyCount: 0, nextContinuationToken: null },
        (output, body) => ({
          fields: {
            keyCount:
              output.KeyCount ??
              (output.Contents?.length ?? 0) + (output.CommonPrefixes?.length ?? 0),
            nextContinuationToken: output.IsTruncated ? output.NextContinuationToken || null : null,
          },
          bytes: body.length,
        }),
      );
    },

    async createMultipartUpload(key, options = {}) {
      assertObjectKey(key);
      const command = new CreateMultipartUploadCommand({ Bucket, Key: key });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        { uploadId: null },
        (output) => ({ fields: { uploadId: output.UploadId || null } }),
      );
    },

    async uploadPart(key, uploadId, partNumber, body, options = {}) {
      assertObjectKey(key);
      assertUploadId(uploadId);
      assertPartNumber(partNumber);
      const command = new UploadPartCommand({
        Bucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: partNumber,
        Body: body,
        ContentLength: body.byteLength,
      });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        { etag: null },
        (output) => ({ ...etagOf(output.ETag), bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      );
    },

    async completeMultipartUpload(key, uploadId, parts, options = {}) {
      assertObjectKey(key);
      assertUploadId(uploadId);
      assertCompletedParts(parts);
      const command = new CompleteMultipartUploadCommand({
        Bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: {
          Parts: parts.map(({ partNumber, etag }) => ({ PartNumber: partNumber, ETag: etag })),
        },
      });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        { etag: null },
        (output) => etagOf(output.ETag),
        { emptyBodyIsError: true },
      );
    },

    async abortMultipartUpload(key, uploadId, options = {}) {
      assertObjectKey(key);
      assertUploadId(uploadId);
      const command = new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId });
      return callPlain(command, options);
    },

    async createBucket(name, options = {}) {
      assertBucketName(name);
      // The SDK adds the client's region as LocationConstraint unless it is us-east-1.
      const command = new CreateBucketCommand({ Bucket: name });
      return callPlain(command, options);
    },

    async deleteBucket(name, options = {}) {
      assertBucketName(name);
      const command = new DeleteBucketCommand({ Bucket: name });
      return callPlain(command, options);
    },

    async listBuckets(options = {}) {
      const command = new ListBucketsCommand({});
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        { bucketCount: 0 },
        (output, body) => ({
          fields: { bucketCount: output.Buckets?.length ?? 0 },
          bytes: body.length,
        }),
      );
    },

    async deleteObjects(keys, options = {}) {
      assertDeleteKeys(keys);
      const command = new DeleteObjectsCommand({
        Bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      });
      command.middlewareStack.add(addContentMd5, { step: "build", priority: "low" });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        { keyErrors: [] },
        (output) => {
          const keyErrors = (output.Errors ?? []).map((failure) => ({
            key: failure.Key ?? "",
            code: failure.Code ?? "Unknown",
          }));
          return { fields: { keyErrors }, error: partialFailureCode(keyErrors) };
        },
      );
    },

    async close() {
      await handler.close();
      client.destroy();
    },
  };
}
