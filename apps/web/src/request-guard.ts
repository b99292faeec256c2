import type { IncomingHttpHeaders } from "node:http";
import { presentedTokens, tokenCookieName, tokensEqual } from "./launch-token.ts";

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

/**
 * Where a request to the web host may come from. The Host header defeats DNS rebinding (a
 * hostile name resolving to 127.0.0.1 still sends its own name); the Origin header, which
 * browsers set on cross-site POSTs and WebSocket handshakes, defeats other pages' requests.
 */
export function checkOrigin(headers: IncomingHttpHeaders, port: number): GuardVerdict {
  const host = headers.host?.toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return refuse(
      403,
      `Host "${headers.host ?? ""}" refused: TailLab answers only at 127.0.0.1:${port}`,
    );
  }
  const origin = headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) {
    return refuse(403, `cross-site request from "${origin}" refused`);
  }
  return { ok: true };
}

/** Whether a request carries this launch's token (a Bearer header or any launch cookie). */
export function checkToken(
  headers: IncomingHttpHeaders,
  port: number,
  token: string,
): GuardVerdict {
  const presented = presentedTokens(headers, tokenCookieName(port, token));
  if (presented.some((given) => tokensEqual(given, token))) {
    return { ok: true };
  }
  return refuse(
    401,
    "missing or wrong launch token: open the link TailLab printed when it started",
  );
}

/** Both checks, origin first: a refused origin learns nothing about the token. */
export function checkRequest(
  headers: IncomingHttpHeaders,
  port: number,
  token: string,
): GuardVerdict {
  const origin = checkOrigin(headers, port);
  return origin.ok ? checkToken(headers, port, token) : origin;
}

function refuse(status: 401 | 403, message: string): GuardVerdict {
  return { ok: false, status, message };
}
