import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePorts } from "./free-port.ts";

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
const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 100;
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_CHARS = 4_000;

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
 * listening on 127.0.0.1 only. Resolves once `/minio/health/ready` answers 200.
 */
export async function startMinio(options: MinioOptions = {}): Promise<MinioServer> {
  const binary = await minioBinary();
  const [port, consolePort] = await freePorts(2);
  if (port === undefined || consolePort === undefined) throw new Error("startMinio: no free ports");
  const dataDir = await mkdtemp(join(tmpdir(), "taillab-minio-data-"));
  const homeDir = await mkdtemp(join(tmpdir(), "taillab-minio-home-"));
  const accessKeyId = `test${randomBytes(6).toString("hex")}`;
  const secretAccessKey = randomBytes(18).toString("base64url");
  const url = `http://127.0.0.1:${port}`;

  const child = spawn(
    binary,
    [
      "server",
      dataDir,
      "--address",
      `127.0.0.1:${port}`,
      "--console-address",
      `127.0.0.1:${consolePort}`,
      "--quiet",
    ],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: homeDir,
        MINIO_ROOT_USER: accessKeyId,
        MINIO_ROOT_PASSWORD: secretAccessKey,
        MINIO_BROWSER: "off",
        ...(options.domain ? { MINIO_DOMAIN: options.domain } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output = captureTail(child);
  // A test process that exits without calling stop() must not leave MinIO (or its files) behind.
  const killOnExit = () => {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(homeDir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      process.off("exit", killOnExit);
      await terminate(child);
      await rm(dataDir, { recursive: true, force: true });
      await rm(homeDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  try {
    await waitUntilReady(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, accessKeyId, secretAccessKey, dataDir, stop };
}

function minioBinary(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("bash", [ENSURE_MINIO], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`startMinio: ${ENSURE_MINIO} failed: ${stderr.trim() || error.message}`));
        return;
      }
      const path = stdout.trim().split("\n").at(-1);
      if (!path) reject(new Error(`startMinio: ${ENSURE_MINIO} printed no binary path`));
      else resolve(path);
    });
  });
}

interface OutputTail {
  text(): string;
}

function captureTail(child: ChildProcess): OutputTail {
  let tail = "";
  const append = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return { text: () => tail.trim() };
}

async function waitUntilReady(url: string, child: ChildProcess, output: OutputTail): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const describe = (what: string) => {
    const tail = output.text();
    return new Error(
      `startMinio: MinIO at ${url} ${what}` + (tail ? `; its output ends with:\n${tail}` : ""),
    );
  };
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw describe(`exited early (${child.exitCode ?? child.signalCode})`);
    }
    try {
      const response = await fetch(`${url}/minio/health/ready`, {
        signal: AbortSignal.timeout(2_000),
      });
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw describe(`was not ready after ${READY_TIMEOUT_MS / 1000} s`);
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const escalated = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), STOP_GRACE_MS);
  });
  if ((await Promise.race([exited, escalated])) === "timeout") {
    child.kill("SIGKILL");
    await exited;
  }
  clearTimeout(timer);
}
