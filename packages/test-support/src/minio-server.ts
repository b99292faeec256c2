import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { freePorts } from "./free-port.ts";
import { startServerProcess } from "./server-process.ts";

export interface MinioServer {
  /** http://127.0.0.1:PORT — the S3 API. */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The server's data directory (removed by stop()). */
  dataDir: string;
  /** SIGTERM, then SIGKILL after 5 s; removes the temporary directories. Safe to call twice. */
  stop(): Promise<void>;
}

const ENSURE_MINIO = fileURLToPath(new URL("../../../scripts/ensure-minio.sh", import.meta.url));

export interface MinioOptions {
  /**
   * MINIO_DOMAIN: enables virtual-host requests (Host: bucket.DOMAIN:port), e.g. "localhost".
   * Path-style requests keep working.
   */
  domain?: string;
}

/**
 * Starts a private MinIO server for one test file: random root credentials, its own data
 * directory and HOME (so it never reads or writes the user's MinIO config), the web console off,
 * listening on 127.0.0.1 only. Resolves once `/minio/health/ready` answers 200 and the S3 API
 * no longer answers 503 (not initialized).
 */
export async function startMinio(options: MinioOptions = {}): Promise<MinioServer> {
  const [port, consolePort] = await freePorts(2);
  if (port === undefined || consolePort === undefined) throw new Error("startMinio: no free ports");
  const accessKeyId = `test${randomBytes(6).toString("hex")}`;
  const secretAccessKey = randomBytes(18).toString("base64url");
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess({
    name: "MinIO",
    ensureScript: ENSURE_MINIO,
    folders: ["data", "home"],
    url,
    args: (_binary, { data }) => [
      "server",
      data as string,
      "--address",
      `127.0.0.1:${port}`,
      "--console-address",
      `127.0.0.1:${consolePort}`,
      "--quiet",
    ],
    env: ({ home }) => ({
      HOME: home as string,
      MINIO_ROOT_USER: accessKeyId,
      MINIO_ROOT_PASSWORD: secretAccessKey,
      MINIO_BROWSER: "off",
      ...(options.domain ? { MINIO_DOMAIN: options.domain } : {}),
    }),
    ready: async () => {
      const answer = async (path: string) => {
        const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(2_000) });
        await response.body?.cancel();
        return response.status;
      };
      // On a busy machine the health check can pass before the S3 API serves: an anonymous
      // ListBuckets answers 503 XMinioServerNotInitialized until it does (403 after).
      return (await answer("/minio/health/ready")) === 200 && (await answer("/")) !== 503;
    },
  });
  return {
    url,
    accessKeyId,
    secretAccessKey,
    dataDir: server.folders.data as string,
    stop: server.stop,
  };
}
