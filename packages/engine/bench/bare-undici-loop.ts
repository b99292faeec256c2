import aws4 from "aws4";
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { Pool } from "undici";
import { SERVICE_TIME_HEADER } from "@taillab/testbed";
import type { ResolvedCredentials } from "../src/index.ts";
import type { BareLoopWorkerData, BarePhase } from "./bare-loop-worker.ts";

/**
 * The floor: the same S3 requests as TailLab sends (signed, or unsigned without credentials),
 * from one thread, with nothing but undici and aws4 — no workers, no records, no histograms.
 * What Node can do on this machine.
 */
export interface BareLoopOptions {
  url: string;
  bucket: string;
  region: string;
  /** null: unsigned requests, as TailLab sends them to a target without credentials. */
  credentials: ResolvedCredentials | null;
  op: "PUT" | "GET" | "DELETE";
  keys: readonly string[];
  inFlight: number;
  body: Buffer;
}

export interface BareLoopResult {
  errors: number;
  receivedBytes: number;
  /** Per key, in key order: from before the request is built to its body fully read. */
  latencyUs: Float64Array;
  /** Per key: the testbed's x-taillab-service-time-us stamp; NaN when the server sent none. */
  serviceTimeUs: Float64Array;
}

export async function runBareLoop(options: BareLoopOptions): Promise<BareLoopResult> {
  const origin = new URL(options.url);
  const pool = new Pool(origin.origin, { connections: options.inFlight });
  const method = options.op;
  const latencyUs = new Float64Array(options.keys.length);
  const serviceTimeUs = new Float64Array(options.keys.length).fill(Number.NaN);
  let next = 0;
  let errors = 0;
  let received = 0;
  const client = async () => {
    while (next < options.keys.length) {
      const index = next++;
      const key = options.keys[index] as string;
      const startMs = performance.now();
      const path = `/${options.bucket}/${key}`;
      const response = await pool.request({
        method,
        path,
        headers: requestHeaders(options, origin, method, path),
        ...(method === "PUT" ? { body: options.body } : {}),
      });
      // Read the whole body, as TailLab does.
      for await (const chunk of response.body) received += (chunk as Buffer).length;
      latencyUs[index] = (performance.now() - startMs) * 1000;
      const stamp = response.headers[SERVICE_TIME_HEADER];
      if (typeof stamp === "string") serviceTimeUs[index] = Number(stamp);
      if (response.statusCode >= 300) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, client));
  await pool.close();
  return { errors, receivedBytes: received, latencyUs, serviceTimeUs };
}

/** The loop's operations in turn on a new worker thread (bare-loop-worker.ts). */
export async function runBareLoopOnWorker(workerData: BareLoopWorkerData): Promise<BarePhase[]> {
  const worker = new Worker(new URL("./bare-loop-worker.ts", import.meta.url), { workerData });
  const [phases] = (await once(worker, "message")) as [BarePhase[]];
  await worker.terminate();
  return phases;
}

function requestHeaders(
  options: BareLoopOptions,
  origin: URL,
  method: string,
  path: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (method === "PUT") headers["Content-Length"] = String(options.body.length);
  if (options.credentials === null) return headers;
  headers["X-Amz-Content-Sha256"] = "UNSIGNED-PAYLOAD";
  const signed = aws4.sign(
    { host: origin.host, method, path, service: "s3", region: options.region, headers },
    options.credentials,
  );
  return signed.headers as Record<string, string>;
}
