import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { freePorts } from "./free-port.ts";
import { answersHttp, startServerProcess } from "./server-process.ts";

export interface VersitygwServer {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

const ENSURE_VERSITYGW = fileURLToPath(
  new URL("../../../scripts/ensure-versitygw.sh", import.meta.url),
);

/**
 * versitygw, a strict S3 gateway, over a POSIX folder of its own: what catches a client that
 * leans on MinIO's leniency. --keep-alive, or it closes the connection after every response.
 */
export async function startVersitygw(): Promise<VersitygwServer> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error("startVersitygw: no free port");
  const accessKeyId = `test${randomBytes(6).toString("hex")}`;
  const secretAccessKey = randomBytes(18).toString("base64url");
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess({
    name: "versitygw",
    ensureScript: ENSURE_VERSITYGW,
    folders: ["data", "home"],
    url,
    args: (_binary, { data }) => [
      "--port",
      `127.0.0.1:${port}`,
      "--keep-alive",
      "--quiet",
      "posix",
      data as string,
    ],
    env: ({ home }) => ({
      HOME: home as string,
      ROOT_ACCESS_KEY: accessKeyId,
      ROOT_SECRET_KEY: secretAccessKey,
    }),
    ready: () => answersHttp(url),
  });
  return { url, accessKeyId, secretAccessKey, stop: server.stop };
}
