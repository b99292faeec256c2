import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { CLI_MAIN } from "./run-cli.ts";

/**
 * `taillab testbed` in a process of its own, as a real server a test can stop (SIGSTOP), resume,
 * kill and start again on the same port and folder, signed with keys of its own.
 */
export interface TestbedProcess {
  url: string;
  port: number;
  pid: number;
  /** The keys it checks, as the variables a run reads them from. */
  env: { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL, and wait for it to be gone. */
  kill(): Promise<void>;
  /** A new process on the same port, folder and keys (after kill). */
  restart(): Promise<TestbedProcess>;
}

export interface TestbedProcessOptions {
  /** Keep objects in this folder, so they outlive a kill; default memory. */
  dir?: string;
  /** Default 0: a free port. */
  port?: number;
  env?: TestbedProcess["env"];
}

const running = new Set<ChildProcessWithoutNullStreams>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startTestbedProcess(
  options: TestbedProcessOptions = {},
): Promise<TestbedProcess> {
  const env = options.env ?? {
    AWS_ACCESS_KEY_ID: `TB${randomBytes(6).toString("hex").toUpperCase()}`,
    AWS_SECRET_ACCESS_KEY: randomBytes(18).toString("base64url"),
  };
  const child = spawn(process.execPath, [
    CLI_MAIN,
    "testbed",
    "--bucket",
    "loadgen",
    "--access-key",
    env.AWS_ACCESS_KEY_ID,
    "--secret-key",
    env.AWS_SECRET_ACCESS_KEY,
    "--port",
    String(options.port ?? 0),
    ...(options.dir ? ["--dir", options.dir] : []),
  ]);
  running.add(child);
  child.once("exit", () => running.delete(child));
  const url = await firstLine(child);
  const port = Number(new URL(url).port);
  return {
    url,
    port,
    pid: child.pid as number,
    env,
    signal: (signal) => child.kill(signal),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
    restart: () => startTestbedProcess({ ...options, port, env }),
  };
}

/** The URL it prints first; its stderr when it exits instead. */
function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line) resolve(line.trim());
    });
    child.once("exit", (code) => reject(new Error(`taillab testbed exited (${code}): ${stderr}`)));
  });
}
