import type { RequestOptions, RequestOutcome } from "../transport/object-transport.ts";
import { createBucketXml } from "../transport/request-arguments.ts";
import { addressBucket, assertBucketName } from "../transport/transport-target.ts";
import { NO_FIELDS, nothing, type EngineOperation } from "./engine-operation.ts";

export interface CreateBucketMethods {
  /**
   * Any bucket of the endpoint (not only the target's), addressed the target's way. Sends the
   * target's region as LocationConstraint unless it is us-east-1.
   */
  createBucket(name: string, options?: RequestOptions): Promise<RequestOutcome>;
}

// The buckets a mix makes and leaves (or makes and fails to delete, a stop cutting the delete
// off) are removed by the run after the phase, by name (`taillab-<run>-w…`, see
// workloadBucketName): a worker may be terminated before it could.
export const createBucketOperation: EngineOperation<"CREATE_BUCKET", CreateBucketMethods> = {
  name: "CREATE_BUCKET",
  fast: ({ target, address, exchange }) => ({
    async createBucket(name, options = {}) {
      const bucket = addressBucket(target, address.endpointHost, name);
      const body = createBucketXml(target.region);
      return exchange(
        {
          method: "PUT",
          path: bucket.pathPrefix,
          host: bucket.hostHeader,
          ...(body === null ? {} : { headers: { "Content-Type": "application/xml" }, body }),
        },
        options,
        NO_FIELDS,
        nothing,
      );
    },
  }),
  sdk: ({ S3, callPlain }) => ({
    async createBucket(name, options = {}) {
      assertBucketName(name);
      // The SDK adds the client's region as LocationConstraint unless it is us-east-1.
      return callPlain(new S3.CreateBucketCommand({ Bucket: name }), options);
    },
  }),
  mixRequest(worker, _workload, { bucketNumber }) {
    const name = worker.bucketNameOf(bucketNumber);
    return {
      key: name,
      send: (replica, options) => worker.transportFor(replica).createBucket(name, options),
    };
  },
};
