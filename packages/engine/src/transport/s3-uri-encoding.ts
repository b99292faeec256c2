/**
 * URI encoding as S3 and SigV4 expect it: every byte except the unreserved set
 * A-Z a-z 0-9 - _ . ~ is percent-encoded (UTF-8, upper-case hex).
 */
export function encodeRfc3986(text: string): string {
  // encodeURIComponent leaves !'()* alone; RFC 3986 (and SigV4) reserve them.
  return encodeURIComponent(text).replace(RESERVED_SUBDELIMS, percentEncode);
}

/**
 * An object key as a request path: each '/'-separated segment encoded on its own, '/' kept, so
 * the path on the wire is already the canonical path SigV4 signs. '+' becomes %2B: left raw,
 * servers (and aws4's canonicaliser) may read it as a space.
 */
export function encodeS3Key(key: string): string {
  if (key.length === 0) throw new Error("encodeS3Key: an S3 object key cannot be empty");
  // TailLab's own keys (prefix/run/number) need no encoding: one test instead of a split, an
  // encode per segment and a join on every request.
  if (UNRESERVED_PATH.test(key)) return key;
  return key.split("/").map(encodeRfc3986).join("/");
}

const UNRESERVED_PATH = /^[A-Za-z0-9\-_.~/]*$/;
const RESERVED_SUBDELIMS = /[!'()*]/g;

function percentEncode(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
}
