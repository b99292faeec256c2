import { existsSync } from "node:fs";
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import type { TailLabService } from "@taillab/api";
import { visibleText } from "@taillab/core";
import { answerApiCall } from "./api-route.ts";
import { bundleBridgeScript } from "./bridge-bundle.ts";
import { createConnectionLimit } from "./connection-limit.ts";
import { BRIDGE_SCRIPT_PATH, injectBridgeScript } from "./index-html.ts";
import { newLaunchToken, tokenCookie, tokensEqual } from "./launch-token.ts";
import { checkOrigin, checkRequest, checkToken } from "./request-guard.ts";
import { createRunEventSockets, MAX_EVENT_SOCKETS, RUN_EVENTS_PATH } from "./run-event-socket.ts";
import { securityHeaders } from "./security-headers.ts";
import { sendBody, sendJson, sendText } from "./responses.ts";
import { readUiFile } from "./static-files.ts";
import {
  REQUESTS_CSV_PATH,
  serveRequestsCsv,
  type RequestsCsvSource,
} from "./requests-csv-route.ts";

/** Loopback only: the host hands out the backend (stored secrets, runs) to whoever connects. */
const LOOPBACK = "127.0.0.1";
const API_PREFIX = "/api/";

/**
 * Connections at once, event sockets included: the UI needs six per browser (its per-host limit)
 * and an event socket per tab (at most MAX_EVENT_SOCKETS). Far above that and far below the
 * process's file descriptors, which the runs' own connections to servers share.
 */
const MAX_CONNECTIONS = 256;
/**
 * The Cookie header may be large: every cookie of 127.0.0.1, whatever port set it, comes with
 * each request, and another page can set forty 4 KB ones to make Node's 16 KB limit refuse the UI
 * (431). Browsers keep at most 180 cookies of 4 KB per host: about 720 KB.
 */
const MAX_HEADER_BYTES = 1024 * 1024;
/** A connection that has not sent its headers by then is dropped (a half-open flood). */
const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, body included (API bodies are under 1 MiB, sent from this machine). */
const REQUEST_TIMEOUT_MS = 30_000;
/** An idle kept-alive connection is closed after this long. */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export interface WebHostOptions {
  /** The API's calls, and the per-request CSV, which is downloaded rather than called. */
  service: TailLabService & RequestsCsvSource;
  /** A build of apps/ui (its index.html and assets). */
  uiDir: string;
  /** 0 or absent: a free port. */
  port?: number;
}

export interface WebHost {
  /** Open this one: it carries the launch token, which the host trades for a cookie. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/**
 * The browser host: the built UI and the backend's API on 127.0.0.1, for one launch token.
 * Every request must name this host (Host), come from its own pages (Origin) and carry the
 * token; see README.md for why each check exists.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { service, uiDir } = options;
  if (!existsSync(join(uiDir, "index.html"))) {
    throw new Error(`no index.html in ${uiDir}: build the UI first (pnpm build:ui)`);
  }
  const bridgeScript = await bundleBridgeScript();
  const token = newLaunchToken();
  const sockets = createRunEventSockets(service);
  const connections = createConnectionLimit();
  let port = 0;

  const serverOptions = {
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // How often those timeouts are checked (Node's default, 30 s, would let them run long).
    connectionsCheckingInterval: 1_000,
  };
  const server = createServer(serverOptions, (request, response) => {
    for (const [name, value] of Object.entries(securityHeaders(port))) {
      response.setHeader(name, value);
    }
    handleRequest(request, response).catch((error: unknown) => {
      // The path alone: a query may hold the launch token, which never goes to a log.
      const path = (request.url ?? "").split("?", 1)[0];
      // A failure's message may quote a server or a name, escape sequences and all.
      const said = visibleText(`${request.method} ${path}: ${String(error)}`);
      process.stderr.write(`taillab web host: ${said}\n`);
      if (!response.headersSent) sendText(response, 500, "internal error: see the host's output");
      else response.destroy();
    });
  });

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const origin = checkOrigin(request.headers, port);
    if (!origin.ok) return sendText(response, origin.status, origin.message);
    const url = new URL(request.url ?? "/", `http://${LOOPBACK}:${port}`);
    const offered = url.searchParams.get("token");
    if (offered !== null && request.method === "GET") {
      return tradeTokenForCookie(url, offered, response);
    }
    const auth = checkToken(request.headers, port, token);
    if (!auth.ok) return sendText(response, auth.status, auth.message);
    connections.prove(request.socket);

    if (url.pathname === RUN_EVENTS_PATH) {
      return sendText(response, 426, `${RUN_EVENTS_PATH} is a WebSocket`);
    }
    if (url.pathname === REQUESTS_CSV_PATH) {
      return serveRequestsCsv(service, url, request, response);
    }
    if (url.pathname.startsWith(API_PREFIX)) {
      const answer = await answerApiCall(service, url.pathname.slice(API_PREFIX.length), request);
      if ("json" in answer) return sendJson(response, answer.status, answer.json);
      return sendText(response, answer.status, answer.text);
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return sendText(response, 405, "only GET and HEAD serve files");
    }
    if (url.pathname === BRIDGE_SCRIPT_PATH) {
      response.setHeader("cache-control", "no-store");
      return sendBody(response, "text/javascript; charset=utf-8", bridgeScript, request.method);
    }
    return serveUiFile(url.pathname, request, response);
  }

  /** `/?token=…`: a valid token becomes the session cookie, and the URL loses it. */
  function tradeTokenForCookie(url: URL, offered: string, response: ServerResponse): void {
    if (!tokensEqual(offered, token)) {
      return sendText(
        response,
        401,
        "wrong launch token: open the link TailLab printed when it started",
      );
    }
    connections.prove(response.socket as Socket);
    url.searchParams.delete("token");
    response.writeHead(303, {
      "set-cookie": tokenCookie(port, token),
      location: sameOriginLocation(url),
      "cache-control": "no-store",
    });
    response.end();
  }

  async function serveUiFile(
    pathname: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const found = await readUiFile(uiDir, pathname);
    if (found === null) return sendText(response, 404, `${pathname} not found`);
    if (found.contentType.startsWith("text/html")) {
      // index.html names this launch's bridge and asset hashes: never reuse an old copy.
      response.setHeader("cache-control", "no-store");
      const html = injectBridgeScript(found.body.toString("utf8"));
      return sendBody(response, found.contentType, html, request.method);
    }
    sendBody(response, found.contentType, found.body, request.method);
  }

  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? "/", `http://${LOOPBACK}`).pathname;
    const verdict =
      pathname === RUN_EVENTS_PATH
        ? checkRequest(request.headers, port, token)
        : ({ ok: false, status: 404, message: `no WebSocket at ${pathname}` } as const);
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.message);
    connections.prove(socket as Socket);
    if (!sockets.hasRoom()) {
      return refuseUpgrade(
        socket,
        503,
        `too many event connections (${MAX_EVENT_SOCKETS} are open): close other TailLab tabs of this host`,
      );
    }
    sockets.accept(request, socket, head);
  });

  server.maxConnections = MAX_CONNECTIONS;
  server.on("connection", (socket: Socket) => connections.admit(socket));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${LOOPBACK}:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Where the token trade sends the browser: the same path on this host. A path that starts with
 * two slashes (`/.//evil.example/` normalises to `//evil.example/`) would be read as another
 * host's address, so the leading slashes become one.
 */
function sameOriginLocation(url: URL): string {
  return `/${url.pathname.replace(/^\/+/, "")}${url.search}`;
}

function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "content-type: text/plain; charset=utf-8\r\n" +
      `content-length: ${Buffer.byteLength(message)}\r\n` +
      "connection: close\r\n\r\n" +
      message,
  );
}
