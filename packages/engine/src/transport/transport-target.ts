import { DEFAULT_REQUEST_TIMEOUT_MS } from "@taillab/api";
import { rootCertificates, type ConnectionOptions } from "node:tls";
import type { TransportTarget } from "./object-transport.ts";

/** Where requests about one bucket go. */
export interface BucketAddress {
  /**
   * Host header: host[:port], or bucket.host[:port] with virtual-host addressing. Connections
   * still go to the endpoint's own address (no DNS name per bucket needed); undici takes the TLS
   * server name (SNI) from this header.
   */
  hostHeader: string;
  /**
   * "/bucket/" (path addressing) or "/" (virtual-host): object keys follow it, and it is the path
   * of requests about the bucket itself (with the trailing slash, as the SDK sends them).
   */
  pathPrefix: string;
}

/** What every request to a target shares, worked out once. */
export interface TargetAddress extends BucketAddress {
  /** Where connections go: the endpoint's origin (http(s)://host:port). */
  origin: string;
  /** The endpoint's host[:port]: the Host of requests about no bucket (ListBuckets). */
  endpointHost: string;
}

/** Validates a target (a malformed one is a programmer error: the api schemas check user input). */
export function resolveTargetAddress(target: TransportTarget): TargetAddress {
  const url = parseEndpointUrl(target.url);
  if (!Number.isInteger(target.maxConnections) || target.maxConnections < 1) {
    throw new Error(
      `transport: maxConnections must be a positive integer, got ${target.maxConnections}`,
    );
  }
  return {
    origin: url.origin,
    endpointHost: url.host,
    ...addressBucket(target, url.host, target.bucket),
  };
}

/** A bucket's address on the target's endpoint, in the target's addressing style. */
export function addressBucket(
  target: TransportTarget,
  endpointHost: string,
  bucket: string,
): BucketAddress {
  assertBucketName(bucket);
  if (target.addressing === "virtual-host") {
    return { hostHeader: `${bucket}.${endpointHost}`, pathPrefix: "/" };
  }
  return { hostHeader: endpointHost, pathPrefix: `/${encodeURIComponent(bucket)}/` };
}

export function assertBucketName(bucket: string): void {
  if (bucket.length === 0 || bucket.includes("/")) {
    throw new Error(`transport: invalid bucket name "${bucket}"`);
  }
}

export function parseEndpointUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`transport: endpoint "${text}" is not a URL`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/") {
    throw new Error(`transport: endpoint "${text}" must be http(s)://host[:port] with no path`);
  }
  if (url.search !== "" || url.username !== "" || url.password !== "") {
    throw new Error(`transport: endpoint "${text}" must not carry a query or user info`);
  }
  return url;
}

/** An empty key is a programmer error on both paths (the SDK would report it as a failed call). */
export function assertObjectKey(key: string): void {
  if (key.length === 0) throw new Error("transport: an S3 object key cannot be empty");
}

/** The target's request timeout (ms), its default filled in. */
export function requestTimeoutOf(target: TransportTarget): number {
  return target.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
}

/**
 * How undici connects to the target: a lab CA trusted beside the system's CAs (Node's `ca`
 * replaces them otherwise), or no certificate check; undefined: Node's defaults.
 */
export function tlsConnectOptions(target: TransportTarget): ConnectionOptions | undefined {
  const { tls } = target;
  if (tls?.insecure) return { rejectUnauthorized: false };
  if (tls?.ca !== undefined) return { ca: [...rootCertificates, tls.ca] };
  return undefined;
}
