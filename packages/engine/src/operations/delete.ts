import type { RequestOptions, RequestOutcome } from "../transport/object-transport.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import {
  NO_FIELDS,
  nothing,
  type BuiltRequest,
  type EngineOperation,
  type WorkerRequests,
} from "./engine-operation.ts";

export interface DeleteMethods {
  deleteObject(key: string, options?: RequestOptions): Promise<RequestOutcome>;
}

function deleteRequest(worker: WorkerRequests, keyNumber: number): BuiltRequest {
  const key = worker.keyOf(keyNumber);
  return {
    key,
    send: (replica, options) => worker.transportFor(replica).deleteObject(key, options),
  };
}

export const deleteOperation: EngineOperation<"DELETE", DeleteMethods> = {
  name: "DELETE",
  fast: ({ objectPath, exchange }) => ({
    deleteObject: async (key, options = {}) =>
      exchange({ method: "DELETE", path: objectPath(key) }, options, NO_FIELDS, nothing),
  }),
  sdk: ({ S3, bucket, callPlain }) => ({
    async deleteObject(key, options = {}) {
      assertObjectKey(key);
      return callPlain(new S3.DeleteObjectCommand({ Bucket: bucket, Key: key }), options);
    },
  }),
  phaseRequest: deleteRequest,
  mixRequest: (worker, _workload, planned) => deleteRequest(worker, planned.keyNumber),
};
