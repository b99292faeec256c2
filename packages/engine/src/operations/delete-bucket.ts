import type { RequestOptions, RequestOutcome } from "../transport/object-transport.ts";
import { addressBucket, assertBucketName } from "../transport/transport-target.ts";
import { NO_FIELDS, nothing, type EngineOperation } from "./engine-operation.ts";

export interface DeleteBucketMethods {
  /** Any bucket of the endpoint (not only the target's), addressed the target's way. */
  deleteBucket(name: string, options?: RequestOptions): Promise<RequestOutcome>;
}

export const deleteBucketOperation: EngineOperation<"DELETE_BUCKET", DeleteBucketMethods> = {
  name: "DELETE_BUCKET",
  fast: ({ target, address, exchange }) => ({
    async deleteBucket(name, options = {}) {
      const bucket = addressBucket(target, address.endpointHost, name);
      return exchange(
        { method: "DELETE", path: bucket.pathPrefix, host: bucket.hostHeader },
        options,
        NO_FIELDS,
        nothing,
      );
    },
  }),
  sdk: ({ S3, callPlain }) => ({
    async deleteBucket(name, options = {}) {
      assertBucketName(name);
      return callPlain(new S3.DeleteBucketCommand({ Bucket: name }), options);
    },
  }),
  mixRequest(worker, _workload, { bucketNumber }) {
    // Its own bucket, made just before and not measured, so every delete has one to delete.
    const name = worker.bucketNameOf(bucketNumber);
    return {
      key: name,
      send: async (replica, options) => {
        const transport = worker.transportFor(replica);
        const made = await transport.createBucket(name, { signal: worker.signal });
        if (made.error !== null) return made;
        return transport.deleteBucket(name, options);
      },
    };
  },
};
