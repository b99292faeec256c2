import { createRequire } from "node:module";
import { freePorts } from "./free-port.ts";
import { answersHttp, startServerProcess } from "./server-process.ts";

export interface S3rverServer {
  url: string;
  /** s3rver's only key: "S3RVER" / "S3RVER" (it does not verify SigV4 signatures). */
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

const S3RVER_BIN = createRequire(import.meta.url).resolve("s3rver/bin/s3rver.js");

/**
 * s3rver 3.7.1 (npm), a small S3 server over a folder, with `buckets` made at start. A real
 * server that ignores conditional writes (If-None-Match: * overwrites), which a distributed
 * run's start barrier must refuse rather than trust.
 */
export async function startS3rver(buckets: readonly string[] = []): Promise<S3rverServer> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error("startS3rver: no free port");
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess({
    name: "s3rver",
    ensureScript: { binary: process.execPath },
    folders: ["data"],
    url,
    args: (_binary, { data }) => [
      S3RVER_BIN,
      "--directory",
      data as string,
      "--address",
      "127.0.0.1",
      "--port",
      String(port),
      "--no-vhost-buckets",
      "--silent",
      ...buckets.flatMap((bucket) => ["--configure-bucket", bucket]),
    ],
    env: () => ({}),
    ready: () => answersHttp(url),
  });
  return { url, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", stop: server.stop };
}
