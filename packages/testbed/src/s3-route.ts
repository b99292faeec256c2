/** Which bucket, key and S3 operation a request addresses. Pure: no I/O, no store. */
import type { IncomingHttpHeaders } from "node:http";
import { ROUTED_OPERATIONS, type S3Operation } from "./operations/registry.ts";
import type { RequestRoute, RouteTarget } from "./operations/testbed-operation.ts";
import { S3Error } from "./s3-error.ts";

export interface RequestTarget {
  /** As sent, still percent-encoded: what SigV4 signs. */
  rawPath: string;
  rawQuery: string;
  query: URLSearchParams;
  bucket: string | null;
  key: string | null;
}

/**
 * S3 sub-resources the testbed does not implement. A request naming one gets NotImplemented
 * rather than being mistaken for the plain operation (`PUT /b/k?acl` is not a PutObject).
 */
const UNSUPPORTED_SUBRESOURCES = new Set([
  "accelerate",
  "acl",
  "analytics",
  "attributes",
  "cors",
  "encryption",
  "intelligent-tiering",
  "inventory",
  "legal-hold",
  "lifecycle",
  "logging",
  "metrics",
  "notification",
  "object-lock",
  "ownershipControls",
  "policy",
  "policyStatus",
  "publicAccessBlock",
  "replication",
  "requestPayment",
  "restore",
  "retention",
  "select",
  "session",
  "tagging",
  "torrent",
  "versionId",
  "versioning",
  "versions",
  "website",
]);

const NO_QUERY = new URLSearchParams();

function decodePathPart(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw new S3Error("InvalidURI", `Couldn't parse the specified URI: ${text}`);
  }
}

/** The host name without its port, lower-cased; IPv6 literals keep their brackets. */
function hostName(host: string): string {
  const lower = host.toLowerCase();
  const colon = lower.lastIndexOf(":");
  return colon === -1 || lower.endsWith("]") ? lower : lower.slice(0, colon);
}

/**
 * Splits a request into bucket and key. The bucket comes from the Host header when it is
 * `<bucket><suffix>` for one of `virtualHostSuffixes` (e.g. ".localhost"), otherwise from the
 * first path segment.
 */
export function parseTarget(
  url: string,
  host: string | undefined,
  virtualHostSuffixes: readonly string[],
): RequestTarget {
  const question = url.indexOf("?");
  const rawPath = question === -1 ? url : url.slice(0, question);
  const rawQuery = question === -1 ? "" : url.slice(question + 1);
  const query = rawQuery === "" ? NO_QUERY : new URLSearchParams(rawQuery);
  if (!rawPath.startsWith("/")) {
    throw new S3Error("InvalidURI", `Couldn't parse the specified URI: ${url}`);
  }

  const name = host === undefined ? "" : hostName(host);
  for (const suffix of virtualHostSuffixes) {
    if (name.length > suffix.length && name.endsWith(suffix)) {
      const key = decodePathPart(rawPath.slice(1));
      return { rawPath, rawQuery, query, bucket: name.slice(0, -suffix.length), key: key || null };
    }
  }
  const slash = rawPath.indexOf("/", 1);
  const bucket = decodePathPart(slash === -1 ? rawPath.slice(1) : rawPath.slice(1, slash));
  const key = slash === -1 ? "" : decodePathPart(rawPath.slice(slash + 1));
  return { rawPath, rawQuery, query, bucket: bucket || null, key: key || null };
}

const WHAT_IS_NAMED: Record<RouteTarget, string> = {
  service: "the service",
  bucket: "a bucket",
  object: "an object",
};

function methodNotAllowed(method: string, names: RouteTarget): S3Error {
  return new S3Error(
    "MethodNotAllowed",
    `The specified method is not allowed against ${WHAT_IS_NAMED[names]}: ${method}`,
  );
}

/** The routes of one method on one kind of target, and the query parameters they need. */
interface RouteGroup {
  routes: { operation: S3Operation; route: RequestRoute }[];
  parameters: Set<string>;
}

/** The operations' routes by what they name and their method; in each, those with a header first. */
const ROUTE_GROUPS: Record<RouteTarget, Map<string, RouteGroup>> = {
  service: new Map(),
  bucket: new Map(),
  object: new Map(),
};
for (const { name, route } of ROUTED_OPERATIONS) {
  const byMethod = ROUTE_GROUPS[route.names];
  const group = byMethod.get(route.method) ?? { routes: [], parameters: new Set<string>() };
  byMethod.set(route.method, group);
  group.routes.push({ operation: name, route });
  for (const parameter of route.query ?? []) group.parameters.add(parameter);
}
const withHeader = (route: RequestRoute) => (route.header === undefined ? 1 : 0);
for (const byMethod of Object.values(ROUTE_GROUPS)) {
  for (const group of byMethod.values()) {
    group.routes.sort((a, b) => withHeader(a.route) - withHeader(b.route));
  }
}

/** Query parameters only an object's routes need. */
const OBJECT_PARAMETERS = new Set(
  ROUTED_OPERATIONS.flatMap(({ route }) => (route.names === "object" ? (route.query ?? []) : [])),
);

function carriesAny(query: URLSearchParams, parameters: Iterable<string>): boolean {
  for (const parameter of parameters) if (query.has(parameter)) return true;
  return false;
}

/**
 * A route with query parameters takes a request carrying one of them; one without takes a
 * request carrying none of its group's. A route with a header takes only a request carrying it.
 */
function fits(
  route: RequestRoute,
  group: RouteGroup,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
): boolean {
  const hasQuery = query !== NO_QUERY;
  const byQuery =
    route.query === undefined
      ? !hasQuery || !carriesAny(query, group.parameters)
      : hasQuery && carriesAny(query, route.query);
  return byQuery && (route.header === undefined || headers[route.header] !== undefined);
}

function refuseUnsupportedSubresources(query: URLSearchParams): void {
  for (const name of query.keys()) {
    if (UNSUPPORTED_SUBRESOURCES.has(name)) {
      throw new S3Error(
        "NotImplemented",
        `The testbed does not implement the "${name}" sub-resource`,
      );
    }
  }
}

/**
 * A request naming no key cannot mean an operation on an object: a DELETE /bucket?uploadId=…
 * that lost its key must not become DeleteBucket.
 */
function refuseObjectParameters(query: URLSearchParams, group: RouteGroup | undefined): void {
  for (const name of query.keys()) {
    if (OBJECT_PARAMETERS.has(name) && !group?.parameters.has(name)) {
      throw new S3Error("InvalidRequest", `A request with "${name}" must name a key`);
    }
  }
}

/** The operation a request is for: the first of its method's routes there that it fits. */
export function resolveOperation(
  method: string,
  target: RequestTarget,
  headers: IncomingHttpHeaders,
): S3Operation {
  const { bucket, key, query } = target;
  if (bucket === null && key !== null) {
    throw new S3Error("InvalidBucketName", "The request names a key but no bucket");
  }
  const names: RouteTarget = bucket === null ? "service" : key === null ? "bucket" : "object";
  const group = ROUTE_GROUPS[names].get(method);
  // The service has no sub-resources: listing the buckets ignores a query.
  if (names !== "service" && query !== NO_QUERY) {
    refuseUnsupportedSubresources(query);
    if (names === "bucket") refuseObjectParameters(query, group);
  }
  if (group !== undefined) {
    for (const { operation, route } of group.routes) {
      if (!fits(route, group, query, headers)) continue;
      route.refuse?.(target, headers);
      return operation;
    }
  }
  throw methodNotAllowed(method, names);
}
