import type {
  ListObjectsOutcome,
  ListObjectsQuery,
  RequestOptions,
} from "../transport/object-transport.ts";
import { assertMaxKeys } from "../transport/request-arguments.ts";
import { parseListObjectsPage } from "../transport/s3-response-xml.ts";
import { encodeRfc3986 } from "../transport/s3-uri-encoding.ts";
import type { EngineOperation } from "./engine-operation.ts";

export interface ListMethods {
  /** One ListObjectsV2 page of the target bucket. */
  listObjects(query: ListObjectsQuery, options?: RequestOptions): Promise<ListObjectsOutcome>;
}

const NO_PAGE = { keyCount: 0, nextContinuationToken: null };

export const listOperation: EngineOperation<"LIST", ListMethods> = {
  name: "LIST",
  fast: ({ address, exchange }) => ({
    async listObjects({ prefix, maxKeys, continuationToken }, options = {}) {
      assertMaxKeys(maxKeys);
      const query = [
        "list-type=2",
        ...(continuationToken === undefined
          ? []
          : [`continuation-token=${encodeRfc3986(continuationToken)}`]),
        ...(maxKeys === undefined ? [] : [`max-keys=${maxKeys}`]),
        ...(prefix === undefined ? [] : [`prefix=${encodeRfc3986(prefix)}`]),
      ].join("&");
      return exchange(
        { method: "GET", path: `${address.pathPrefix}?${query}` },
        options,
        NO_PAGE,
        ({ body }) => ({ fields: parseListObjectsPage(body.toString("utf8")), bytes: body.length }),
      );
    },
  }),
  sdk: ({ S3, client, bucket, call }) => ({
    async listObjects({ prefix, maxKeys, continuationToken }, options = {}) {
      assertMaxKeys(maxKeys);
      const command = new S3.ListObjectsV2Command({
        Bucket: bucket,
        ...(prefix === undefined ? {} : { Prefix: prefix }),
        ...(maxKeys === undefined ? {} : { MaxKeys: maxKeys }),
        ...(continuationToken === undefined ? {} : { ContinuationToken: continuationToken }),
      });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        NO_PAGE,
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
  }),
  mixRequest(worker, workload) {
    const query = { prefix: worker.keyPrefix, maxKeys: workload.listPageSize };
    return {
      key: worker.keyPrefix,
      send: (replica, options) => worker.transportFor(replica).listObjects(query, options),
    };
  },
};
