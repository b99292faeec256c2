import type { IncomingHttpHeaders } from "node:http";
import type { ObjectStore } from "../object-store.ts";
import type { RequestTarget } from "../s3-route.ts";

/**
 * One S3 operation as the testbed serves it: how a request for it is known, what it does to the
 * store and what it answers. Each operation's module implements this once;
 * operations/registry.ts lists them, and the router walks their routes.
 */
export interface TestbedOperation<Name extends string = string> {
  name: Name;
  route: RequestRoute;
  /**
   * What a latency profile does to it. Bucket-level requests and a multipart upload's
   * bookkeeping: nothing, as they are a run's preflight, setup and cleanup (slowing or failing
   * them would fail a run at random rather than measure anything). The data plane, the requests
   * that read, write or delete an object's data: delays and faults ("timing"), and a corrupted
   * body when the answer is an object's data ("timing-and-body").
   */
  profiled: "no" | "timing" | "timing-and-body";
  handle(request: OperationRequest, context: OperationContext): Promise<S3Response>;
}

/** What a request's path names: the service, a bucket, or an object in a bucket. */
export type RouteTarget = "service" | "bucket" | "object";

/**
 * How the router knows a request for an operation. A query parameter names a sub-resource, and
 * with it the operation; a header tells apart operations on the same resource.
 */
export interface RequestRoute {
  names: RouteTarget;
  method: "GET" | "PUT" | "POST" | "HEAD" | "DELETE";
  /**
   * Query parameters of which the request carries one (the first route listed wins when it
   * carries two routes' parameters); absent: it carries none of its method's routes' there.
   */
  query?: readonly string[];
  /** A header the request carries; a route without one takes the same request without it. */
  header?: string;
  /** Refuses, as it is routed, a request for it the testbed does not serve (throws an S3Error). */
  refuse?(target: RequestTarget, headers: IncomingHttpHeaders): void;
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
