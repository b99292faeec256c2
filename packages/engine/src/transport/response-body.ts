import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { errorCodeFromStatus, errorCodeFromXml } from "./s3-error-code.ts";

/**
 * Reads a response body to its end, handing each chunk to `onChunk`. Rejects when the body fails
 * (connection reset, abort) so a cut-short object is never counted as complete.
 */
export async function readBody(body: Readable, onChunk: (chunk: Buffer) => void): Promise<void> {
  body.on("data", onChunk);
  await finished(body);
}

/** Error bodies are small XML documents; anything past this is read and dropped. */
const ERROR_BODY_LIMIT_BYTES = 64 * 1024;

/** The S3 error Code of an error response, from its XML body or, failing that, its status. */
export async function readErrorCode(body: Readable, status: number): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  await readBody(body, (chunk) => {
    if (kept < ERROR_BODY_LIMIT_BYTES) {
      chunks.push(chunk);
      kept += chunk.length;
    }
  });
  return errorCodeFromXml(Buffer.concat(chunks).toString("utf8")) ?? errorCodeFromStatus(status);
}

/** The whole body of a response known to be small (S3's XML answers). */
export async function readWholeBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await readBody(body, (chunk) => chunks.push(chunk));
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
