import { sha256 } from "@noble/hashes/sha2";

/**
 * SHA-256 of UTF-8 text, base64-encoded: the form a Content-Security-Policy hash source takes
 * ('sha256-…'). Synchronous so a pure package can compute it (Web Crypto's digest is
 * asynchronous, and node:crypto is not available to pure code).
 */
export function sha256Base64(text: string): string {
  return toBase64(sha256(new TextEncoder().encode(text)));
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk =
      ((bytes[index] as number) << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    text += BASE64[(chunk >>> 18) & 63]! + BASE64[(chunk >>> 12) & 63]!;
    text += index + 1 < bytes.length ? BASE64[(chunk >>> 6) & 63]! : "=";
    text += index + 2 < bytes.length ? BASE64[chunk & 63]! : "=";
  }
  return text;
}
