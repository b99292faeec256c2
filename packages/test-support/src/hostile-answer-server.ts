import { once } from "node:events";
import {
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** The requests a hostile answer server can answer itself. */
export type HostileOperation = "LIST" | "PUT" | "DELETE" | "DELETE_OBJECTS";

/** `huge`: a 200 of `hugeBytes` (Content-Length); `endless`: a chunked 200 that never ends. */
export type HostileAnswer = "huge" | "endless";

export interface HostileAnswerOptions {
  /** A real S3 server (the testbed, MinIO) that answers every request not answered here. */
  upstream: string;
  /** Which answer a request gets, or null to pass it upstream. */
  answer: (request: {
    operation: HostileOperation;
    query: URLSearchParams;
  }) => HostileAnswer | null;
  /** Default 2 GiB. */
  hugeBytes?: number;
}

export interface HostileAnswerServer {
  url: string;
  /** Hostile answers started, by operation. */
  answered(): Record<HostileOperation, number>;
  /** Hostile answer bytes written to clients so far. */
  bytesSent(): number;
  close(): Promise<void>;
}

const TWO_GIB = 2 * 1024 ** 3;
/** A listing entry repeated as the answer's filler: it reads as XML as far as anyone looks. */
const FILLER = Buffer.from("<Contents><Key>filler</Key><Size>1</Size></Contents>".repeat(1260));

/**
 * An S3 server in front of `upstream` that answers the chosen LISTs, PUTs, DELETEs and
 * DeleteObjects with 200 and a body of gigabytes, or one without end, written as fast as the
 * client reads it (with backpressure, never held whole: the server's own memory stays flat) and
 * stopped when the client drops the connection. Everything else is passed to `upstream` as it
 * came (headers, signature and all).
 */
export async function startHostileAnswerServer(
  options: HostileAnswerOptions,
): Promise<HostileAnswerServer> {
  const upstream = new URL(options.upstream);
  const hugeBytes = options.hugeBytes ?? TWO_GIB;
  const answered: Record<HostileOperation, number> = {
    LIST: 0,
    PUT: 0,
    DELETE: 0,
    DELETE_OBJECTS: 0,
  };
  let sent = 0;
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://hostile");
    const operation = operationOf(request.method ?? "", url, request.headers);
    const answer =
      operation === null ? null : options.answer({ operation, query: url.searchParams });
    if (operation === null || answer === null) {
      passUpstream(request, response, upstream);
      return;
    }
    answered[operation] += 1;
    // The request's own body is not wanted; read it off so the client's send completes.
    request.resume();
    writeHostile(response, answer === "huge" ? hugeBytes : null, (bytes) => (sent += bytes)).catch(
      () => response.destroy(),
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered: () => ({ ...answered }),
    bytesSent: () => sent,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

/** Path-style requests: /bucket for bucket operations, /bucket/key for objects. */
function operationOf(
  method: string,
  url: URL,
  headers: IncomingMessage["headers"],
): HostileOperation | null {
  const hasKey = url.pathname.split("/").filter(Boolean).length > 1;
  if (method === "GET" && !hasKey && url.pathname !== "/") return "LIST";
  if (method === "POST" && url.searchParams.has("delete")) return "DELETE_OBJECTS";
  if (method === "PUT" && hasKey && headers["x-amz-copy-source"] === undefined) return "PUT";
  if (method === "DELETE" && hasKey && !url.searchParams.has("uploadId")) return "DELETE";
  return null;
}

/** `total` bytes (null: without end), written as the client takes them. */
async function writeHostile(
  response: ServerResponse,
  total: number | null,
  onSent: (bytes: number) => void,
): Promise<void> {
  response.writeHead(200, {
    "Content-Type": "application/xml",
    ...(total === null ? {} : { "Content-Length": String(total) }),
  });
  let left = total ?? Number.POSITIVE_INFINITY;
  const gone = new Promise<void>((resolve) => response.once("close", resolve));
  while (left > 0 && !response.destroyed) {
    const chunk = left >= FILLER.length ? FILLER : FILLER.subarray(0, left);
    left -= chunk.length;
    onSent(chunk.length);
    if (!response.write(chunk)) {
      await Promise.race([once(response, "drain"), gone]);
    }
  }
  if (!response.destroyed) response.end();
}

function passUpstream(request: IncomingMessage, response: ServerResponse, upstream: URL): void {
  const outgoing = forward(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: request.headers,
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  outgoing.on("error", () => response.destroy());
  response.on("close", () => outgoing.destroy());
  request.pipe(outgoing);
}
