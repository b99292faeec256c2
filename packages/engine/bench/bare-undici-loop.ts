import aws4 from "aws4";
import { Pool } from "undici";
import type { Operation } from "@taillab/api";
import type { ResolvedCredentials } from "../src/index.ts";

/**
 * The floor: the same signed S3 requests as TailLab sends, from one thread, with nothing but
 * undici and aws4 — no workers, no records, no histograms. What Node can do on this machine.
 */
export interface BareLoopOptions {
  url: string;
  bucket: string;
  region: string;
  credentials: ResolvedCredentials;
  op: Operation;
  keys: readonly string[];
  inFlight: number;
  body: Buffer;
}

export async function runBareLoop(
  options: BareLoopOptions,
): Promise<{ errors: number; receivedBytes: number }> {
  const origin = new URL(options.url);
  const pool = new Pool(origin.origin, { connections: options.inFlight });
  const method = { PUT: "PUT", GET: "GET", DELETE: "DELETE" }[options.op];
  let next = 0;
  let errors = 0;
  let received = 0;
  const client = async () => {
    while (next < options.keys.length) {
      const key = options.keys[next++] as string;
      const path = `/${options.bucket}/${key}`;
      const headers: Record<string, string> = { "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD" };
      if (method === "PUT") headers["Content-Length"] = String(options.body.length);
      const signed = aws4.sign(
        { host: origin.host, method, path, service: "s3", region: options.region, headers },
        options.credentials,
      );
      const response = await pool.request({
        method,
        path,
        headers: signed.headers as Record<string, string>,
        ...(method === "PUT" ? { body: options.body } : {}),
      });
      // Read the whole body, as TailLab does.
      for await (const chunk of response.body) received += (chunk as Buffer).length;
      if (response.statusCode >= 300) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, client));
  await pool.close();
  return { errors, receivedBytes: received };
}
