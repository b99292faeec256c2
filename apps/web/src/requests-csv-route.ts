import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { REQUESTS_CSV_DOWNLOAD_PATH } from "@taillab/api";
import type { TailLabBackend } from "@taillab/backend";
import { sendText } from "./responses.ts";

/** `GET /download/requests.csv?runId=<id>[&bom=1]`: a run's per-request CSV as a download. */
export const REQUESTS_CSV_PATH = REQUESTS_CSV_DOWNLOAD_PATH;

export type RequestsCsvSource = Pick<TailLabBackend, "requestsCsvFile">;

/**
 * Streams the CSV as the backend reads it from the run's log: each chunk is written once the
 * previous one has drained, so the host holds a chunk, not the file. It is a GET (a link the
 * browser saves), reached only past the host's Host, Origin and token checks; a request another
 * site's page started (Sec-Fetch-Site) is refused too, since a download needs no other page.
 */
export async function serveRequestsCsv(
  source: RequestsCsvSource,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== "GET") return sendText(response, 405, `use GET for ${url.pathname}`);
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return sendText(response, 403, `a ${site} request for a download is refused`);
  }
  const runId = url.searchParams.get("runId");
  if (!runId) return sendText(response, 400, "runId: name the run whose requests to export");
  let file;
  try {
    file = await source.requestsCsvFile(runId, { bom: url.searchParams.get("bom") === "1" });
  } catch (error) {
    return sendText(response, 404, `runId: ${(error as Error).message}`);
  }
  response.writeHead(200, {
    "content-type": file.mimeType,
    // The slug is ASCII letters, digits and hyphens: the name needs no escaping.
    "content-disposition": `attachment; filename="${file.fileName}"`,
    "cache-control": "no-store",
  });
  // A browser that cancels the download ends the pipeline, which closes the run's log: the
  // user's choice, not the host's failure.
  await pipeline(Readable.from(file.chunks, { objectMode: false }), response).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
    },
  );
}
