import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

/** The command as `./pnpm taillab` starts it, for tests and benches that start it their own way. */
export const CLI_MAIN = fileURLToPath(new URL("../../bin/taillab.js", import.meta.url));

/** Tests keep their runs in a library of their own, never in the user's. */
export const TEST_RESULTS_DIR = mkdtempSync(join(tmpdir(), "taillab-cli-results-"));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * stderr without the warnings that TailLab's client was the bottleneck: a busy machine may print
 * them beside any run, and a test of something else must not depend on how busy it is.
 */
export function stderrBesideClientWarnings(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => !line.includes("TailLab's client was the bottleneck"))
    .join("\n");
}

/** Runs the real `taillab` command in its own process, as a user's shell would. */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  return startCli(args, env).result;
}

/** The command started, for a test that signals it (Ctrl-C is SIGINT) while it runs. */
export function startCli(
  args: readonly string[],
  env: Record<string, string> = {},
): { child: ChildProcessWithoutNullStreams; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    env: {
      ...process.env,
      AWS_ACCESS_KEY_ID: "",
      AWS_SECRET_ACCESS_KEY: "",
      TAILLAB_RESULTS_DIR: TEST_RESULTS_DIR,
      ...env,
    },
  });
  return { child, result: outputOf(child) };
}

/** What a child process printed and how it exited, once it has. */
export function outputOf(child: ChildProcessWithoutNullStreams): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Polls until `check` holds while a started run goes on: the run's outcome if it ended first
 * (refused, crashed, its server judged silent early), else null. A test waiting for a run's
 * moment fails at once with what the run printed instead of polling until its own timeout.
 */
export async function endedBefore(
  run: { result: Promise<CliResult> },
  check: () => Promise<boolean> | boolean,
): Promise<CliResult | null> {
  let ended: CliResult | null = null;
  void run.result.then((result) => (ended = result));
  while (!(await check())) {
    if (ended) return ended;
    await sleep(100);
  }
  return null;
}
