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
 * Cookies are shared by every port of a host name, so the name carries the port (two hosts side
 * by side must not overwrite each other's token) and a digest of the token: a page on another
 * 127.0.0.1 port that sets `taillab-token-PORT=junk; Path=/` would replace a cookie of that name
 * and path, but cannot know this name (an HttpOnly cookie is not shown to scripts), so it can
 * only add cookies beside it.
 */
export function tokenCookieName(port: number, token: string): string {
  const digest = createHash("sha256").update(token).digest("base64url").slice(0, 16);
  return `taillab-token-${port}-${digest}`;
}

export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port, token)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

/**
 * Every token a request carries: a Bearer header, and each cookie of the launch cookie's name. A
 * cookie header may hold several cookies of one name (one set for a longer path comes first);
 * each candidate is checked, so such a cookie cannot lock the UI out.
 */
export function presentedTokens(
  headers: { authorization?: string | undefined; cookie?: string | undefined },
  cookieName: string,
): string[] {
  const tokens: string[] = [];
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? "");
  if (bearer?.[1]) tokens.push(bearer[1]);
  for (const pair of (headers.cookie ?? "").split(";")) {
    const separator = pair.indexOf("=");
    if (separator > 0 && pair.slice(0, separator).trim() === cookieName) {
      tokens.push(pair.slice(separator + 1).trim());
    }
  }
  return tokens;
}
