import type { RequestOptions, RequestOutcome } from "../transport/object-transport.ts";
import { encodeS3Key } from "../transport/s3-uri-encoding.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import { NO_FIELDS, nothing, type EngineOperation } from "./engine-operation.ts";

export interface CopyMethods {
  /** Server-side copy within the target bucket (`x-amz-copy-source: /bucket/encoded-key`). */
  copyObject(
    sourceKey: string,
    destinationKey: string,
    options?: RequestOptions,
  ): Promise<RequestOutcome>;
}

/** `x-amz-copy-source`: /bucket/key, the key encoded as in a request path. */
export function copySourceHeaderValue(bucket: string, key: string): string {
  return `/${encodeURIComponent(bucket)}/${encodeS3Key(key)}`;
}

/**
 * CopyObject answers 200 with an error document when it fails part-way, and a 2xx without a
 * body was cut short: both are errors (emptyBodyIsError).
 */
export const copyOperation: EngineOperation<"COPY", CopyMethods> = {
  name: "COPY",
  fast: ({ target, objectPath, exchange }) => ({
    copyObject: async (sourceKey, destinationKey, options = {}) =>
      exchange(
        {
          method: "PUT",
          path: objectPath(destinationKey),
          headers: { "x-amz-copy-source": copySourceHeaderValue(target.bucket, sourceKey) },
        },
        options,
        NO_FIELDS,
        nothing,
        { emptyBodyIsError: true },
      ),
  }),
  sdk: ({ S3, bucket, callPlain }) => ({
    async copyObject(sourceKey, destinationKey, options = {}) {
      assertObjectKey(sourceKey);
      assertObjectKey(destinationKey);
      const command = new S3.CopyObjectCommand({
        Bucket: bucket,
        Key: destinationKey,
        CopySource: copySourceHeaderValue(bucket, sourceKey),
      });
      return callPlain(command, options, true);
    },
  }),
  mixRequest(worker, _workload, { keyNumber, sourceKeyNumber }) {
    const source = worker.keyOf(sourceKeyNumber);
    const key = worker.keyOf(keyNumber);
    return {
      key,
      send: (replica, options) => worker.transportFor(replica).copyObject(source, key, options),
    };
  },
};
