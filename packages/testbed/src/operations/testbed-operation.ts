import type { IncomingHttpHeaders } from "node:http";
import type { ObjectStore } from "../object-store.ts";
import type { RequestTarget, S3Operation } from "../s3-route.ts";

/**
 * One S3 operation as the testbed serves it: what it does to the store and what it answers.
 * Each operation's module implements this once; operations/registry.ts lists them.
 */
export interface TestbedOperation<Name extends S3Operation = S3Operation> {
  name: Name;
  handle(request: OperationRequest, context: OperationContext): Promise<S3Response>;
}

export interface S3Response {
  status: number;
  headers: Record<string, string | number>;
  /** Absent for empty bodies and for HEAD, whose headers describe a body that is not sent. */
  body?: Buffer | string;
}

export interface OperationRequest {
  target: RequestTarget;
  headers: IncomingHttpHeaders;
  /** The whole body, with its signed SHA-256 checked. */
  readBody(): Promise<Buffer>;
}

export interface OperationContext {
  store: ObjectStore;
  region: string;
  /** The least size of every part of a multipart upload but the last (S3: 5 MiB). */
  minPartSizeBytes: number;
}
