import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The secret of one launch of the web host. Whoever holds it can drive the backend (start runs,
 * read stored endpoints), so it travels only in the printed URL, an HttpOnly cookie and
 * `Authorization: Bearer` headers.
 */
export function newLaunchToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Constant-time comparison: hashing first gives both sides the same length, so neither the
 * content nor the length of a guess leaks through timing.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Cookies are shared by every port of a host name, so the name carries the port: two hosts
 * running side by side must not overwrite each other's token.
 */
export function tokenCookieName(port: number): string {
  return `taillab-token-${port}`;
}

export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

/**
 * Every token a request carries: a Bearer header, and each launch cookie. A cookie header may
 * hold several cookies of one name: another page on 127.0.0.1 (any port shares the cookies) can
 * set `taillab-token-PORT=junk; Path=/api`, which the browser then sends first. Each candidate is
 * checked, so such a cookie cannot lock the UI out.
 */
export function presentedTokens(
  headers: { authorization?: string | undefined; cookie?: string | undefined },
  port: number,
): string[] {
  const tokens: string[] = [];
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? "");
  if (bearer?.[1]) tokens.push(bearer[1]);
  const name = tokenCookieName(port);
  for (const pair of (headers.cookie ?? "").split(";")) {
    const separator = pair.indexOf("=");
    if (separator > 0 && pair.slice(0, separator).trim() === name) {
      tokens.push(pair.slice(separator + 1).trim());
    }
  }
  return tokens;
}
