import type { RequestOptions, RequestOutcome } from "../transport/object-transport.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import {
  NO_FIELDS,
  type BuiltRequest,
  type EngineOperation,
  type WorkerRequests,
} from "./engine-operation.ts";

export interface PutMethods {
  putObject(key: string, body: Uint8Array, options?: RequestOptions): Promise<RequestOutcome>;
}

function putRequest(worker: WorkerRequests, keyNumber: number): BuiltRequest {
  const key = worker.keyOf(keyNumber);
  const body = worker.content.bodyFor(keyNumber);
  return {
    key,
    send: (replica, options) => worker.transportFor(replica).putObject(key, body, options),
  };
}

export const putOperation: EngineOperation<"PUT", PutMethods> = {
  name: "PUT",
  fast: ({ objectPath, exchange }) => ({
    putObject: async (key, body, options = {}) =>
      exchange(
        { method: "PUT", path: objectPath(key), body },
        options,
        NO_FIELDS,
        () => ({ fields: NO_FIELDS, bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      ),
  }),
  sdk: ({ S3, client, bucket, call }) => ({
    async putObject(key, body, options = {}) {
      assertObjectKey(key);
      const command = new S3.PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentLength: body.byteLength,
      });
      return call(
        command,
        (abortSignal) => client.send(command, { abortSignal }),
        options,
        NO_FIELDS,
        () => ({ fields: NO_FIELDS, bytes: body.byteLength }),
        { uploadBytes: body.byteLength },
      );
    },
  }),
  phaseRequest: putRequest,
  mixRequest: (worker, _workload, planned) => putRequest(worker, planned.keyNumber),
};
