import type { Readable } from "node:stream";
import { errorCodeFromStatus, errorCodeFromXml } from "./s3-error-code.ts";

/**
 * Reads a response body to its end, handing each chunk to `onChunk`. Rejects when the body fails
 * (connection reset, abort) so a cut-short object is never counted as complete. Async iteration
 * ends with the last chunk; stream.finished() also waited for the stream's later 'close', which
 * measured as ~0.1 ms more per request at p50 than a bare loop (pnpm bench tail, 1 in flight).
 */
export async function readBody(body: Readable, onChunk: (chunk: Buffer) => void): Promise<void> {
  for await (const chunk of body) onChunk(chunk as Buffer);
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
