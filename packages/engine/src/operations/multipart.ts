import { uploadInParts } from "../transport/multipart-upload.ts";
import type {
  CompletedPart,
  CreateMultipartUploadOutcome,
  EtagOutcome,
  RequestOptions,
  RequestOutcome,
} from "../transport/object-transport.ts";
import {
  assertCompletedParts,
  assertUploadId,
  completeMultipartUploadXml,
} from "../transport/request-arguments.ts";
import { parseTextField } from "../transport/s3-response-xml.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import {
  NO_FIELDS,
  nothing,
  type EngineOperation,
  type RequestOrigin,
  type WorkerRequests,
} from "./engine-operation.ts";
import { etagOfOutput, uploadPartOperation, uploadPathOf } from "./upload-part.ts";

/** The calls of a multipart upload but its parts (upload-part.ts). */
export interface MultipartMethods {
  createMultipartUpload(
    key: string,
    options?: RequestOptions,
  ): Promise<CreateMultipartUploadOutcome>;
  /** `parts` in ascending part number; the outcome's etag is the whole object's. */
  completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: readonly CompletedPart[],
    options?: RequestOptions,
  ): Promise<EtagOutcome>;
  abortMultipartUpload(
    key: string,
    uploadId: string,
    options?: RequestOptions,
  ): Promise<RequestOutcome>;
}

/**
 * Each part of a multipart upload as a request of its own (UPLOAD_PART), beside the whole
 * upload's latency (MULTIPART), meant to start when it was sent. Parts of an upload cut short by
 * a stop are not counted.
 */
function recordParts(
  worker: WorkerRequests,
  key: string,
  replica: number,
  origin: RequestOrigin,
  parts: readonly RequestOutcome[],
): void {
  if (worker.signal.aborted) return;
  for (const outcome of parts) {
    worker.recordRequest(
      uploadPartOperation.name,
      key,
      { ...origin, intendedStartUs: outcome.readyUs },
      {
        attempts: [{ attempt: 1, replica, outcome, cancelled: false }],
        winner: outcome.error === null ? 0 : null,
        hedgeDelayMs: null,
      },
    );
  }
}

/**
 * CompleteMultipartUpload answers 200 with an error document when it fails part-way, and a 2xx
 * without a body was cut short: both are errors (emptyBodyIsError).
 */
export const multipartOperation: EngineOperation<"MULTIPART", MultipartMethods> = {
  name: "MULTIPART",
  fast: ({ objectPath, exchange }) => ({
    createMultipartUpload: async (key, options = {}) =>
      exchange(
        { method: "POST", path: `${objectPath(key)}?uploads` },
        options,
        { uploadId: null },
        ({ body }) => ({ fields: { uploadId: parseTextField(body.toString("utf8"), "UploadId") } }),
      ),

    async completeMultipartUpload(key, uploadId, parts, options = {}) {
      assertCompletedParts(parts);
      const body = completeMultipartUploadXml(parts);
      return exchange(
        {
          method: "POST",
          path: uploadPathOf(objectPath(key), uploadId),
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
      exchange(
        { method: "DELETE", path: uploadPathOf(objectPath(key), uploadId) },
        options,
        NO_FIELDS,
        nothing,
      ),
  }),
  sdk: ({ S3, client, bucket, call, callPlain }) => ({
    async createMultipartUpload(key, options = {}) {
      assertObjectKey(key);
      const command = new S3.CreateMultipartUploadCommand({ Bucket: bucket, Key: key });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        { uploadId: null },
        (output) => ({ fields: { uploadId: output.UploadId || null } }),
      );
    },

    async completeMultipartUpload(key, uploadId, parts, options = {}) {
      assertObjectKey(key);
      assertUploadId(uploadId);
      assertCompletedParts(parts);
      const command = new S3.CompleteMultipartUploadCommand({
        Bucket: bucket,
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
        (output) => ({ fields: { etag: etagOfOutput(output.ETag) } }),
        { emptyBodyIsError: true },
      );
    },

    async abortMultipartUpload(key, uploadId, options = {}) {
      assertObjectKey(key);
      assertUploadId(uploadId);
      const command = new S3.AbortMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
      });
      return callPlain(command, options);
    },
  }),
  mixRequest(worker, workload, { keyNumber }, origin) {
    const key = worker.keyOf(keyNumber);
    const body = worker.content.bodyFor(keyNumber);
    return {
      key,
      send: async (replica, options) => {
        const upload = await uploadInParts(
          worker.transportFor(replica),
          key,
          body,
          workload.multipartPartBytes,
          workload.multipartPartsInFlight,
          options.signal ? { signal: options.signal } : {},
        );
        // A backup's twin that lost was cancelled: its parts measured nothing.
        if (!options.signal?.aborted) recordParts(worker, key, replica, origin, upload.parts);
        return upload.outcome;
      },
    };
  },
};
