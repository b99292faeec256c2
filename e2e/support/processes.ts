import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dirname, "..", "..");

export interface RunningProcess {
  /** What it has printed on stdout so far, line by line. */
  lines: string[];
  stop(): Promise<void>;
}

/**
 * Starts a Node program of this repo and resolves once the lines it printed satisfy `ready`; its
 * stderr goes to the test's log so a failure shows what the process said.
 */
export async function startNodeProgram(
  script: string,
  args: string[],
  ready: (lines: string[]) => boolean,
  env: Record<string, string> = {},
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [join(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(
      () =>
        reject(new Error(`${script} was not ready after 60 s:\n${lines.join("\n")}\n${stderr}`)),
      60_000,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split("\n");
      buffered = complete.pop() ?? "";
      lines.push(...complete);
      if (ready(lines)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready:\n${stderr}`));
    });
  });
  return { lines, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killTimer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killTimer);
}

export interface TestbedProcess {
  urls: string[];
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  stop(): Promise<void>;
}

/** A real testbed in its own process (`taillab testbed`), checking SigV4 like a real server. */
export async function startTestbedProcess(
  options: { profile?: string; replicas?: number } = {},
): Promise<TestbedProcess> {
  const accessKeyId = "E2EACCESSKEY";
  const secretAccessKey = "e2e-secret-key";
  const bucket = "e2e-bucket";
  const replicas = options.replicas ?? 1;
  const running = await startNodeProgram(
    "apps/cli/src/main.ts",
    [
      "testbed",
      "--bucket",
      bucket,
      "--access-key",
      accessKeyId,
      "--secret-key",
      secretAccessKey,
      "--replicas",
      String(replicas),
      "--profile",
      options.profile ?? "fast",
    ],
    (lines) => lines.filter((line) => line.startsWith("http://")).length >= replicas,
  );
  return {
    urls: running.lines.filter((line) => line.startsWith("http://")),
    accessKeyId,
    secretAccessKey,
    bucket,
    stop: running.stop,
  };
}

export interface WebHostProcess {
  /** With the launch token: opening it signs the browser in. */
  url: string;
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** The browser host with a fresh data folder: first start, as a new user sees it. */
export async function startWebHostProcess(): Promise<WebHostProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), "taillab-e2e-"));
  const running = await startNodeProgram(
    "apps/web/src/main.ts",
    ["--port", "0", "--data-dir", dataDir, "--results", join(dataDir, "results")],
    (lines) => lines.some((line) => /https?:\/\/127\.0\.0\.1:\d+\/\S*/.test(line)),
  );
  const url = /(https?:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(running.lines.join("\n"))?.[1];
  if (!url) throw new Error("the web host printed no URL");
  return {
    url,
    origin: new URL(url).origin,
    dataDir,
    stop: async () => {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
