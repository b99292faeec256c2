import { once } from "node:events";
import {
  Agent,
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How a hostile server lists a bucket:
 * - `ignore-prefix`: ListObjects(V2) and ListMultipartUploads answer the whole bucket, whatever
 *   `prefix` asked for (the parameter is dropped on the way);
 * - `always-truncated`: every ListObjectsV2 answer says more follow, with the same continuation
 *   token each time, and is the listing's first page whatever token was sent;
 * - `always-truncated-new-token`: the same, with a token never sent before each time.
 */
export type ListingFault = "ignore-prefix" | "always-truncated" | "always-truncated-new-token";

/**
 * An HTTP proxy in front of an S3 server that lists as a hostile (or buggy) server does, and
 * passes every other request through untouched. It rewrites requests, so the server behind must
 * not check signatures (the embedded testbed started without credentials).
 */
export interface HostileListingServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Listing requests answered so far (ListObjects, ListObjectsV2, ListMultipartUploads). */
  listings(): number;
  close(): Promise<void>;
}

export async function startHostileListingServer(
  upstream: string,
  faults: readonly ListingFault[],
): Promise<HostileListingServer> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let listings = 0;
  const truncation = faults.find((fault) => fault.startsWith("always-truncated"));

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", target);
    const listing = isListing(request.method, url);
    if (listing) {
      listings += 1;
      if (faults.includes("ignore-prefix")) url.searchParams.delete("prefix");
      if (truncation && url.searchParams.get("list-type") === "2") {
        url.searchParams.delete("continuation-token");
      }
    }
    const upstreamRequest = forward(
      url,
      { method: request.method, headers: request.headers, agent },
      (answer) => {
        const rewrite =
          listing && truncation && url.searchParams.get("list-type") === "2"
            ? (xml: string) =>
                alwaysTruncated(xml, truncation === "always-truncated" ? "again" : `t${listings}`)
            : null;
        if (rewrite) void rewritten(answer, response, rewrite);
        else {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        }
      },
    );
    upstreamRequest.on("error", () => response.destroy());
    request.pipe(upstreamRequest);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    listings: () => listings,
    close: async () => {
      server.closeAllConnections();
      server.close();
      agent.destroy();
      await once(server, "close");
    },
  };
}

/** A GET of a bucket itself (path style) that is not one of its sub-resources but a listing. */
function isListing(method: string | undefined, url: URL): boolean {
  const isBucket = /^\/[^/]+\/?$/.test(url.pathname);
  const otherResource = ["location", "versioning", "acl", "policy", "tagging"].some((name) =>
    url.searchParams.has(name),
  );
  return method === "GET" && isBucket && !otherResource;
}

/** The answer, read whole and changed by `rewrite` (a listing is small). */
async function rewritten(
  answer: IncomingMessage,
  response: ServerResponse,
  rewrite: (xml: string) => string,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  const body = Buffer.from(rewrite(Buffer.concat(chunks).toString("utf8")));
  const headers = { ...answer.headers, "content-length": String(body.length) };
  delete headers["transfer-encoding"];
  response.writeHead(answer.statusCode ?? 502, headers);
  response.end(body);
}

/** A ListObjectsV2 answer that says more follow, at `token`. */
function alwaysTruncated(xml: string, token: string): string {
  return xml
    .replace(/<NextContinuationToken>[^<]*<\/NextContinuationToken>/, "")
    .replace(
      /<IsTruncated>(true|false)<\/IsTruncated>/,
      `<IsTruncated>true</IsTruncated><NextContinuationToken>${token}</NextContinuationToken>`,
    );
}
