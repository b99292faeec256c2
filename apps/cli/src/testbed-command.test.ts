import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
const SERVICE_TIME_HEADER = "x-taillab-service-time-us";
/** Every testbed a test started; one still running when its test ends is killed, not left behind. */
const children = new Set<ChildProcess>();

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-cli-testbed-"));
});
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

interface Served {
  urls: string[];
  /** SIGTERM, as Ctrl-C in a shell would; resolves with the exit code. */
  stop(): Promise<number | null>;
}

function spawnTestbed(args: readonly string[]) {
  const child = spawn(process.execPath, [MAIN, "testbed", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const output = { stdout: "", stderr: "" };
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  return { child, exited, output };
}

/**
 * Runs `taillab testbed` expecting it to stop by itself, e.g. on bad input. One that prints a URL
 * serves instead: it is stopped at once, and the test sees what it printed.
 */
async function runTestbed(args: readonly string[]) {
  const { child, exited, output } = spawnTestbed(args);
  child.stdout.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString();
    child.kill("SIGKILL");
  });
  return { code: await exited, ...output };
}

/** Starts `taillab testbed` in its own process and reads the first `lines` lines it prints. */
function serve(args: readonly string[], lines: number): Promise<Served> {
  const { child, exited, output } = spawnTestbed(args);
  return new Promise((resolve, reject) => {
    const urls: string[] = [];
    const reader = createInterface({ input: child.stdout });
    reader.on("line", (line) => {
      urls.push(line);
      if (urls.length < lines) return;
      reader.close();
      resolve({
        urls,
        stop() {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
    void exited.then((code) =>
      reject(
        new Error(`taillab testbed exited (${code}) after ${urls.length} lines: ${output.stderr}`),
      ),
    );
  });
}

describe("taillab testbed", () => {
  it("serves replicas sharing one store and prints one URL per line", async () => {
    const served = await serve(
      ["--replicas", "2", "--profile", "steady", "--seed", "7", "--bucket", "cli-bucket"],
      2,
    );
    try {
      const [first, second] = served.urls;
      expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(second).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(second).not.toBe(first);
      const put = await fetch(`${first}/cli-bucket/shared`, { method: "PUT", body: "hello" });
      expect(put.status).toBe(200);
      const got = await fetch(`${second}/cli-bucket/shared`);
      expect(await got.text()).toBe("hello");
      // steady: a lognormal delay around 5 ms, stamped by the testbed.
      expect(Number(got.headers.get(SERVICE_TIME_HEADER))).toBeGreaterThan(2_000);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it("reads a profile object from a JSON file", async () => {
    const file = join(scratch, "slow.json");
    await writeFile(file, JSON.stringify({ serviceTime: { kind: "fixed", ms: 40 } }));
    const served = await serve(["--profile", file, "--bucket", "cli-bucket"], 1);
    try {
      const [url] = served.urls;
      const answer = await fetch(`${url}/cli-bucket/missing`);
      expect(answer.status).toBe(404);
      expect(Number(answer.headers.get(SERVICE_TIME_HEADER))).toBeGreaterThanOrEqual(40_000);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it.each([
    [
      ["--profile", "slow"],
      'profile: unknown profile "slow"; expected one of fast, steady, stalls, queue, noisy-neighbour, or the path of a JSON file holding a profile',
    ],
    [["--replicas", "17"], "replicas: expected at most 16 replicas"],
    [["--replicas", "two"], 'replicas: expected a whole number, got "two"'],
    [["--seed", "-1"], 'seed: expected a whole number, got "-1"'],
    [["--replicas", "2", "--port", "65535"], "port: 2 replicas from port 65535 would pass 65535"],
  ])("refuses %j with exit code 2", async (args, message) => {
    const result = await runTestbed(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });

  it("a port another server holds: one line naming the port, exit 2, no stack trace", async () => {
    const first = await serve(["--port", "0"], 1);
    try {
      const port = new URL(first.urls[0] ?? "").port;
      const result = await runTestbed(["--port", port]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `taillab testbed: port: cannot listen on 127.0.0.1:${port} (EADDRINUSE)\n`,
      );
    } finally {
      await first.stop();
    }
  });

  it("names the field of an invalid profile file", async () => {
    const file = join(scratch, "bad.json");
    // A field left out is said to be missing; one of the wrong kind, what it should be.
    await writeFile(file, JSON.stringify({ serviceTime: { kind: "lognormal", medianMs: 5 } }));
    const missing = await runTestbed(["--profile", file]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`profile: serviceTime.sigma: is required (in ${file})`);
    const serviceTime = { kind: "lognormal", medianMs: 5, sigma: "wide" };
    await writeFile(file, JSON.stringify({ serviceTime }));
    const wrong = await runTestbed(["--profile", file]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      `profile: serviceTime.sigma: expected a number from 0 to 3 (in ${file})`,
    );
  });
});
