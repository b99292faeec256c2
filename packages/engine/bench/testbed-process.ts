import type { LatencyProfileInput } from "@taillab/api";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ResolvedCredentials } from "../src/index.ts";

/**
 * `taillab testbed` in a child process, so the server's CPU is neither counted as the client's
 * nor taken from the client's event loop. Benches start one per measurement.
 */
export interface TestbedProcessOptions {
  buckets: readonly string[];
  replicas?: number;
  /** A builtin profile name, or a profile object (written to a temporary JSON file). */
  profile?: string | LatencyProfileInput;
  seed?: number;
  /** Without credentials the testbed accepts unsigned requests (targets use `credentials: null`). */
  credentials?: ResolvedCredentials;
}

export interface TestbedProcess {
  /** One per replica, the first replica's first. */
  urls: string[];
  stop(): Promise<void>;
}

const CLI_MAIN = fileURLToPath(new URL("../../../apps/cli/bin/taillab.js", import.meta.url));

export async function startTestbedProcess(options: TestbedProcessOptions): Promise<TestbedProcess> {
  const profileFile = await profileFileFor(options.profile);
  const args = [CLI_MAIN, "testbed", ...testbedArgs(options, profileFile)];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = once(child, "exit");
  const removeProfileFile = async () => {
    if (profileFile) await rm(profileFile.directory, { recursive: true, force: true });
  };
  try {
    const urls = await Promise.race([
      readLines(child.stdout, options.replicas ?? 1),
      // Matters only until the URLs are read; the race ignores it once they are.
      exited.then(([code]) => {
        throw new Error(`taillab testbed exited (code ${code}) before printing its URLs`);
      }),
    ]);
    return {
      urls,
      stop: async () => {
        if (child.exitCode === null) child.kill("SIGTERM");
        await exited;
        await removeProfileFile();
      },
    };
  } catch (error) {
    if (child.exitCode === null) child.kill("SIGKILL");
    await removeProfileFile();
    throw error;
  }
}

function testbedArgs(
  options: TestbedProcessOptions,
  profileFile: { path: string } | null,
): string[] {
  const args = ["--bucket", options.buckets.join(","), "--replicas", String(options.replicas ?? 1)];
  const profile = profileFile?.path ?? options.profile;
  if (typeof profile === "string") args.push("--profile", profile);
  if (options.seed !== undefined) args.push("--seed", String(options.seed));
  if (options.credentials) {
    args.push("--access-key", options.credentials.accessKeyId);
    args.push("--secret-key", options.credentials.secretAccessKey);
  }
  return args;
}

/** `taillab testbed --profile` takes a builtin name or a file; an object goes through a file. */
async function profileFileFor(
  profile: TestbedProcessOptions["profile"],
): Promise<{ directory: string; path: string } | null> {
  if (profile === undefined || typeof profile === "string") return null;
  const directory = await mkdtemp(join(tmpdir(), "taillab-bench-profile-"));
  const path = join(directory, "profile.json");
  await writeFile(path, JSON.stringify(profile));
  return { directory, path };
}

async function readLines(input: NodeJS.ReadableStream, count: number): Promise<string[]> {
  const lines: string[] = [];
  const reader = createInterface({ input });
  for await (const line of reader) {
    lines.push(line);
    if (lines.length === count) break;
  }
  reader.close();
  if (lines.length < count) {
    throw new Error(
      `taillab testbed printed ${lines.length} of ${count} replica URLs, then closed stdout`,
    );
  }
  return lines;
}
