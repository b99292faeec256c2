import { createHash } from "node:crypto";
import type { DeleteObjectsOutcome, RequestOptions } from "../transport/object-transport.ts";
import { assertDeleteKeys, deleteObjectsXml } from "../transport/request-arguments.ts";
import { partialFailureCode } from "../transport/s3-error-code.ts";
import { parseDeleteErrors } from "../transport/s3-response-xml.ts";
import type { EngineOperation } from "./engine-operation.ts";

/** Keys per DeleteObjects request of a workload. */
const DELETE_BATCH_KEYS = 100;

export interface DeleteObjectsMethods {
  /**
   * DeleteObjects (quiet mode, with Content-MD5) of 1…1000 keys of the target bucket. Keys it
   * could not delete come back in `keyErrors`, their codes in the error
   * ("PartialFailure:AccessDenied").
   */
  deleteObjects(keys: readonly string[], options?: RequestOptions): Promise<DeleteObjectsOutcome>;
}

export const deleteObjectsOperation: EngineOperation<"DELETE_OBJECTS", DeleteObjectsMethods> = {
  name: "DELETE_OBJECTS",
  fast: ({ address, exchange }) => ({
    async deleteObjects(keys, options = {}) {
      assertDeleteKeys(keys);
      const body = deleteObjectsXml(keys);
      return exchange(
        {
          method: "POST",
          path: `${address.pathPrefix}?delete`,
          headers: {
            "Content-Type": "application/xml",
            "Content-MD5": createHash("md5").update(body).digest("base64"),
          },
          body,
        },
        options,
        { keyErrors: [] },
        ({ body: answer }) => {
          const keyErrors = parseDeleteErrors(answer.toString("utf8"));
          return { fields: { keyErrors }, error: partialFailureCode(keyErrors) };
        },
      );
    },
  }),
  sdk: ({ S3, client, bucket, call, addContentMd5 }) => ({
    async deleteObjects(keys, options = {}) {
      assertDeleteKeys(keys);
      const command = new S3.DeleteObjectsCommand({
        Bucket: bucket,
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
  }),
  mixRequest(worker, _workload, { keyNumber }) {
    const keys = Array.from({ length: DELETE_BATCH_KEYS }, (_, index) =>
      worker.keyOf(keyNumber + index),
    );
    return {
      key: keys[0] as string,
      send: (replica, options) => worker.transportFor(replica).deleteObjects(keys, options),
    };
  },
};
