import type { ListBucketsOutcome, RequestOptions } from "../transport/object-transport.ts";
import { countListedBuckets } from "../transport/s3-response-xml.ts";
import type { EngineOperation } from "./engine-operation.ts";

export interface ListBucketsMethods {
  listBuckets(options?: RequestOptions): Promise<ListBucketsOutcome>;
}

export const listBucketsOperation: EngineOperation<"LIST_BUCKETS", ListBucketsMethods> = {
  name: "LIST_BUCKETS",
  fast: ({ address, exchange }) => ({
    listBuckets: async (options = {}) =>
      exchange(
        { method: "GET", path: "/", host: address.endpointHost },
        options,
        { bucketCount: 0 },
        ({ body }) => ({
          fields: { bucketCount: countListedBuckets(body.toString("utf8")) },
          bytes: body.length,
        }),
      ),
  }),
  sdk: ({ S3, client, call }) => ({
    async listBuckets(options = {}) {
      const command = new S3.ListBucketsCommand({});
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
  }),
  mixRequest: (worker) => ({
    key: "",
    send: (replica, options) => worker.transportFor(replica).listBuckets(options),
  }),
};
