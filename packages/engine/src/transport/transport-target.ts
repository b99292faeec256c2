import type { TransportTarget } from "./object-transport.ts";

/** What every request to a target shares, worked out once. */
export interface TargetAddress {
  /** Where connections go: the endpoint's origin (http(s)://host:port). */
  origin: string;
  /**
   * Host header: host[:port], or bucket.host[:port] with virtual-host addressing. Connections
   * still go to the endpoint's own address (no DNS name per bucket needed); undici takes the TLS
   * server name (SNI) from this header.
   */
  hostHeader: string;
  /** "/bucket/" (path addressing) or "/" (virtual-host); object keys follow it. */
  pathPrefix: string;
}

/** Validates a target (a malformed one is a programmer error: the api schemas check user input). */
export function resolveTargetAddress(target: TransportTarget): TargetAddress {
  const url = parseEndpointUrl(target.url);
  if (target.bucket.length === 0 || target.bucket.includes("/")) {
    throw new Error(`transport: invalid bucket name "${target.bucket}"`);
  }
  if (!Number.isInteger(target.maxConnections) || target.maxConnections < 1) {
    throw new Error(
      `transport: maxConnections must be a positive integer, got ${target.maxConnections}`,
    );
  }
  const virtual = target.addressing === "virtual-host";
  const hostHeader = virtual ? `${target.bucket}.${url.host}` : url.host;
  return {
    origin: url.origin,
    hostHeader,
    pathPrefix: virtual ? "/" : `/${encodeURIComponent(target.bucket)}/`,
  };
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
