import type { IncomingHttpHeaders } from "node:http";
import type { EtagOutcome, RequestOptions } from "../transport/object-transport.ts";
import { assertPartNumber, assertUploadId } from "../transport/request-arguments.ts";
import { encodeRfc3986 } from "../transport/s3-uri-encoding.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import type { EngineOperation } from "./engine-operation.ts";

export interface UploadPartMethods {
  /** partNumber 1…10 000. */
  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Uint8Array,
    options?: RequestOptions,
  ): Promise<EtagOutcome>;
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

export const uploadPartOperation: EngineOperation<"UPLOAD_PART", UploadPartMethods> = {
  name: "UPLOAD_PART",
  fast: ({ objectPath, exchange }) => ({
    async uploadPart(key, uploadId, partNumber, body, options = {}) {
      assertPartNumber(partNumber);
      return exchange(
        { method: "PUT", path: uploadPathOf(objectPath(key), uploadId, partNumber), body },
        options,
        { etag: null },
        (reply) => ({ fields: { etag: etagOfHeaders(reply.headers) }, bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      );
    },
  }),
  sdk: ({ S3, client, bucket, call }) => ({
    async uploadPart(key, uploadId, partNumber, body, options = {}) {
      assertObjectKey(key);
      assertUploadId(uploadId);
      assertPartNumber(partNumber);
      const command = new S3.UploadPartCommand({
        Bucket: bucket,
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
        (output) => ({ fields: { etag: etagOfOutput(output.ETag) }, bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      );
    },
  }),
  mixRequest() {
    throw new Error("parts are sent by multipart uploads, not drawn from the mix");
  },
};
