/**
 * The digests a client may send with a body, checked against it: Content-MD5, and the
 * x-amz-checksum-* headers Node can compute (CRC32, SHA-1, SHA-256). CRC32C and CRC64NVME are
 * accepted unchecked; no checksum is stored or returned.
 */
import { hash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { crc32 } from "node:zlib";
import { headerText } from "./http-headers.ts";
import { S3Error } from "./s3-error.ts";

function crc32Base64(body: Buffer): string {
  const digest = Buffer.alloc(4);
  digest.writeUInt32BE(crc32(body));
  return digest.toString("base64");
}

const CHECKSUMS: readonly { header: string; name: string; compute: (body: Buffer) => string }[] = [
  { header: "x-amz-checksum-crc32", name: "CRC32", compute: crc32Base64 },
  { header: "x-amz-checksum-sha1", name: "SHA1", compute: (body) => hash("sha1", body, "base64") },
  {
    header: "x-amz-checksum-sha256",
    name: "SHA256",
    compute: (body) => hash("sha256", body, "base64"),
  },
];

/** Checks every digest sent with `body` (BadDigest, InvalidDigest); returns the body's MD5. */
export function checkBodyDigests(body: Buffer, headers: IncomingHttpHeaders): Buffer {
  const digest = hash("md5", body, "buffer");
  const contentMd5 = headerText(headers, "content-md5");
  if (contentMd5 !== undefined && contentMd5 !== digest.toString("base64")) {
    if (Buffer.from(contentMd5, "base64").length !== digest.length) {
      throw new S3Error("InvalidDigest", "The Content-MD5 you specified is not a base64 MD5");
    }
    throw new S3Error("BadDigest", "The Content-MD5 you specified did not match what we received");
  }
  for (const { header, name, compute } of CHECKSUMS) {
    const sent = headerText(headers, header);
    if (sent !== undefined && sent !== compute(body)) {
      throw new S3Error(
        "BadDigest",
        `The ${name} you specified (${header}: ${sent}) did not match the calculated checksum`,
      );
    }
  }
  return digest;
}
