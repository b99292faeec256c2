import { execFile, spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A real server started for one test file, on 127.0.0.1, with its own scratch folders. */
export interface ServerProcess {
  /** SIGTERM, then SIGKILL after 5 s; removes the scratch folders. Safe to call twice. */
  stop(): Promise<void>;
}

export interface ServerLaunch {
  /** For messages: "MinIO", "versitygw". */
  name: string;
  /**
   * A script that builds the server once and prints its binary's path (or folder, see program),
   * or the binary itself when it is there already (e.g. Node, for an npm package's server).
   */
  ensureScript: string | { binary: string };
  /** The binary's name in the folder the script prints, for a script that builds several. */
  program?: string;
  /** Scratch folders to create (data, HOME…) and remove on stop; passed to `args` and `env`. */
  folders: string[];
  args: (binary: string, folders: Record<string, string>) => string[];
  env: (folders: Record<string, string>) => Record<string, string>;
  /** True once the server answers. */
  ready: () => Promise<boolean>;
  /** For messages: where it listens. */
  url: string;
}

const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 100;
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_CHARS = 4_000;

export async function startServerProcess(
  launch: ServerLaunch,
): Promise<ServerProcess & { folders: Record<string, string> }> {
  const binary = await ensureBinary(launch);
  const folders: Record<string, string> = {};
  for (const name of launch.folders) {
    folders[name] = await mkdtemp(join(tmpdir(), `taillab-${launch.name.toLowerCase()}-${name}-`));
  }
  const child = spawn(binary, launch.args(binary, folders), {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...launch.env(folders) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = captureTail(child);
  const removeFolders = () => {
    for (const folder of Object.values(folders)) rmSync(folder, { recursive: true, force: true });
  };
  // A test process that exits without calling stop() must not leave the server (or its files).
  const killOnExit = () => {
    child.kill("SIGKILL");
    removeFolders();
  };
  process.once("exit", killOnExit);

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      process.off("exit", killOnExit);
      await terminate(child);
      for (const folder of Object.values(folders))
        await rm(folder, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    await waitUntilReady(launch, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { folders, stop };
}

async function ensureBinary(launch: ServerLaunch): Promise<string> {
  const { ensureScript } = launch;
  if (typeof ensureScript !== "string") return ensureScript.binary;
  const printed = await runEnsureScript(launch.name, ensureScript);
  return launch.program === undefined ? printed : join(printed, launch.program);
}

function runEnsureScript(name: string, ensureScript: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("bash", [ensureScript], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${name}: ${ensureScript} failed: ${stderr.trim() || error.message}`));
        return;
      }
      const path = stdout.trim().split("\n").at(-1);
      if (!path) reject(new Error(`${name}: ${ensureScript} printed no binary path`));
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

async function waitUntilReady(
  launch: ServerLaunch,
  child: ChildProcess,
  output: OutputTail,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const describe = (what: string) => {
    const tail = output.text();
    return new Error(
      `${launch.name} at ${launch.url} ${what}` + (tail ? `; its output ends with:\n${tail}` : ""),
    );
  };
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw describe(`exited early (${child.exitCode ?? child.signalCode})`);
    }
    try {
      if (await launch.ready()) return;
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

/** An HTTP answer of any status: the server is up. */
export async function answersHttp(url: string, path = "/"): Promise<boolean> {
  const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(2_000) });
  await response.body?.cancel();
  return response.status > 0;
}
