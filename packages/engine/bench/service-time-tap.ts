/**
 * Preload for the added-latency bench: `node --require ./service-time-tap.ts` (worker threads run
 * --require preloads; they skip --import ones). In each of TailLab's client worker threads it
 * reads the testbed's x-taillab-service-time-us stamp off every response undici receives, through
 * undici's public diagnostics channel, and forwards it to the main thread. TailLab's request
 * records do not keep response headers; this gives the bench a per-request server stamp to
 * subtract, as the bare loop has, without changing the engine. Its cost on TailLab's side is
 * one header scan per response and one message per socket read rather than per response.
 */
import { SERVICE_TIME_HEADER } from "@taillab/testbed";
import { subscribe } from "node:diagnostics_channel";
import { isMainThread } from "node:worker_threads";
import { openStampSender, type ServiceTimeStamp } from "./service-time-channel.ts";

/** What undici publishes on undici:request:headers (the parts read here). */
interface ResponseHeadersMessage {
  request: { method: string; path: string };
  response: { headers: (Buffer | string)[] };
}

/** Raw headers are [name, value, name, value, …]. */
function serviceTimeUsOf(rawHeaders: readonly (Buffer | string)[]): number | undefined {
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = String(rawHeaders[index]);
    if (name.length === SERVICE_TIME_HEADER.length && name.toLowerCase() === SERVICE_TIME_HEADER) {
      return Number(String(rawHeaders[index + 1]));
    }
  }
  return undefined;
}

function installTap(): void {
  const sender = openStampSender();
  let batch: ServiceTimeStamp[] = [];
  const flush = () => {
    sender.send(batch);
    batch = [];
  };
  subscribe("undici:request:headers", (message) => {
    const { request, response } = message as ResponseHeadersMessage;
    const serviceTimeUs = serviceTimeUsOf(response.headers);
    if (serviceTimeUs === undefined) return;
    // Batched per I/O callback: the flush runs once the callback that read these headers is done,
    // before anything that answer lets happen next (the end of a phase, then the worker's end).
    if (batch.length === 0) queueMicrotask(flush);
    batch.push({ method: request.method, path: request.path, serviceTimeUs });
  });
}

// Both clients run on worker threads and carry the tap alike; the bench's main thread only
// gathers the stamps.
if (!isMainThread) installTap();
