import type { RequestOptions, RequestOutcome } from "../transport/object-transport.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import { NO_FIELDS, nothing, type EngineOperation } from "./engine-operation.ts";

export interface HeadMethods {
  /** 200 when the object exists; a miss is 404 "NotFound" (a HEAD answer has no body to name it). */
  headObject(key: string, options?: RequestOptions): Promise<RequestOutcome>;
}

export const headOperation: EngineOperation<"HEAD", HeadMethods> = {
  name: "HEAD",
  fast: ({ objectPath, exchange }) => ({
    headObject: async (key, options = {}) =>
      exchange({ method: "HEAD", path: objectPath(key) }, options, NO_FIELDS, nothing),
  }),
  sdk: ({ S3, bucket, callPlain }) => ({
    async headObject(key, options = {}) {
      assertObjectKey(key);
      return callPlain(new S3.HeadObjectCommand({ Bucket: bucket, Key: key }), options);
    },
  }),
  mixRequest(worker, _workload, { keyNumber }) {
    const key = worker.keyOf(keyNumber);
    return {
      key,
      send: (replica, options) => worker.transportFor(replica).headObject(key, options),
    };
  },
};
