import type { IncomingHttpHeaders } from "node:http";
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
import { encodeRfc3986 } from "../transport/s3-uri-encoding.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import { NO_FIELDS, nothing, type EngineOperation } from "./engine-operation.ts";

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

/** An upload's path on the fast path: `<object>?[partNumber=n&]uploadId=…`. */
export function uploadPathOf(objectPath: string, uploadId: string, partNumber?: number): string {
  assertUploadId(uploadId);
  const part = partNumber === undefined ? "" : `partNumber=${partNumber}&`;
  return `${objectPath}?${part}uploadId=${encodeRfc3986(uploadId)}`;
}

/** The ETag as sent, quotes included; null when none came. */
export function etagOfHeaders(headers: IncomingHttpHeaders): string | null {
  const etag = headers.etag;
  return typeof etag === "string" && etag.length > 0 ? etag : null;
}

export function etagOfOutput(etag: string | undefined): string | null {
  return etag || null;
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
        if (!options.signal?.aborted) worker.recordParts(key, replica, origin, upload.parts);
        return upload.outcome;
      },
    };
  },
};
