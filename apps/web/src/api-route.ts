import type { IncomingMessage } from "node:http";
import { dispatchApiCall, isApiMethodName, type TailLabService } from "@taillab/api";

/** Larger than any draft or spec the UI sends; a guard against a runaway client, not a quota. */
export const MAX_API_BODY_BYTES = 1024 * 1024;

export type ApiAnswer = { status: number; json: unknown } | { status: number; text: string };

/**
 * `POST /api/<name>`: the body is the call's input as JSON (empty for calls without one), the
 * answer the call's envelope. Failures the UI can show, bad fields included, are envelopes with
 * status 200; only a request that is not a call at all gets an HTTP error.
 */
export async function answerApiCall(
  service: TailLabService,
  name: string,
  request: IncomingMessage,
): Promise<ApiAnswer> {
  if (request.method !== "POST") return { status: 405, text: `use POST for /api/${name}` };
  const contentType = request.headers["content-type"] ?? "";
  // Only JSON: an HTML form cannot send it, so no page can post to the API without CORS.
  if (!/^application\/json\b/i.test(contentType)) {
    return { status: 415, text: "send the call's input as application/json" };
  }
  const body = await readBody(request);
  if (body === null) {
    return { status: 413, text: `the request body is larger than ${MAX_API_BODY_BYTES} bytes` };
  }
  let input: unknown;
  try {
    input = body.length === 0 ? undefined : JSON.parse(body.toString("utf8"));
  } catch (error) {
    return {
      status: 400,
      text: `the body of /api/${name} is not JSON: ${(error as Error).message}`,
    };
  }
  const envelope = await dispatchApiCall(service, name, input);
  return { status: isApiMethodName(name) ? 200 : 404, json: envelope };
}

/**
 * The whole body, or null once it passes the limit. The rest is read and dropped rather than
 * the stream destroyed, so the 413 still reaches the client; its connection then closes.
 */
function readBody(request: IncomingMessage): Promise<Buffer | null> {
  if (Number(request.headers["content-length"] ?? 0) > MAX_API_BODY_BYTES) {
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > MAX_API_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        resolve(null);
      } else {
        chunks.push(chunk);
      }
    });
    request.on("end", () => {
      if (!tooLarge) resolve(Buffer.concat(chunks));
    });
    request.on("error", reject);
  });
}
