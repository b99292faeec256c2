import type { ServerResponse } from "node:http";

/**
 * A short plain message, for refusals and errors. The connection closes after it: the request's
 * body may not have been read (a refused or oversized POST), and must not be taken for the next
 * request on the same connection.
 */
export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    connection: "close",
  });
  response.end(text);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  response.end(JSON.stringify(value));
}

/** A file's content; HEAD gets the headers only. */
export function sendBody(
  response: ServerResponse,
  contentType: string,
  body: string | Buffer,
  method: string | undefined,
): void {
  response.writeHead(200, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(body),
  });
  response.end(method === "HEAD" ? undefined : body);
}
