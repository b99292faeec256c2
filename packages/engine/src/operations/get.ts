import type { Readable } from "node:stream";
import { createGetBodyCheck } from "../transport/get-body-check.ts";
import type { GetOptions, RequestOutcome } from "../transport/object-transport.ts";
import { rangeHeaderValue } from "../transport/request-arguments.ts";
import { readBody } from "../transport/response-body.ts";
import { errorCodeFromStatus, errorCodeFromXml } from "../transport/s3-error-code.ts";
import { assertObjectKey } from "../transport/transport-target.ts";
import type { EngineOperation } from "./engine-operation.ts";

export interface GetMethods {
  /** Always reads the whole body, so the next request on the connection is not held up. */
  getObject(key: string, options?: GetOptions): Promise<RequestOutcome>;
}

/** The only answer streamed: its body is counted and checked as it comes, never kept. */
export const getOperation: EngineOperation<"GET", GetMethods> = {
  name: "GET",
  fast: ({ objectPath, sendOnWire }) => ({
    async getObject(key, options = {}) {
      const { range } = options;
      const request = {
        method: "GET" as const,
        path: objectPath(key),
        ...(range ? { headers: { Range: rangeHeaderValue(range) } } : {}),
      };
      const body = createGetBodyCheck(options);
      const wire = await sendOnWire(request, options, body);
      const { status } = wire;
      if (wire.error !== null) {
        const bytes = wire.cancelledWireBytes ?? (status >= 300 ? wire.errorBodyBytes : body.bytes);
        return wire.outcome(wire.error, bytes);
      }
      if (status >= 300) {
        const error = errorCodeFromXml(wire.body.toString("utf8")) ?? errorCodeFromStatus(status);
        return wire.outcome(error, wire.errorBodyBytes);
      }
      return wire.outcome(body.verdict(status), body.bytes);
    },
  }),
  sdk: ({ S3, client, bucket, attachProbe, aborted, failed }) => ({
    async getObject(key, options = {}) {
      const { signal, expect, range, onResponse, headers } = options;
      assertObjectKey(key);
      const Range = range ? rangeHeaderValue(range) : undefined;
      const command = new S3.GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ...(Range ? { Range } : {}),
      });
      const probe = attachProbe(command.middlewareStack, onResponse, false, headers);
      if (signal?.aborted) return aborted(probe);
      const body = createGetBodyCheck({ expect, range });
      try {
        const output = await client.send(command, { abortSignal: signal });
        const status = probe.status || (output.$metadata.httpStatusCode ?? 200);
        if (output.Body) await readBody(output.Body as Readable, (chunk) => body.onChunk(chunk));
        const error = body.verdict(status);
        return { ...probe.timing.finish(), status, error, bytes: body.bytes };
      } catch (error) {
        const outcome = failed(probe, error, options);
        const bytes =
          probe.timing.cancelledWireBytes ?? (outcome.status >= 300 ? outcome.bytes : body.bytes);
        return { ...outcome, bytes };
      }
    },
  }),
  phaseRequest(worker, keyNumber) {
    const key = worker.keyOf(keyNumber);
    return {
      key,
      send: (replica, options) =>
        worker
          .transportFor(replica)
          .getObject(
            key,
            worker.verify
              ? { ...options, expect: worker.content.expectationFor(keyNumber) }
              : options,
          ),
    };
  },
  mixRequest(worker, _workload, { keyNumber, range }) {
    const key = worker.keyOf(keyNumber);
    const expect = !worker.verify
      ? undefined
      : range
        ? worker.content.expectationForRange(keyNumber, range)
        : worker.content.expectationFor(keyNumber);
    return {
      key,
      send: (replica, options) =>
        worker.transportFor(replica).getObject(key, {
          ...options,
          ...(range ? { range } : {}),
          ...(expect ? { expect } : {}),
        }),
    };
  },
};
