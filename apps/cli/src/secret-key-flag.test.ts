import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, stderrBesideClientWarnings } from "./test-support/run-cli.ts";
import { startTestbedProcess, type TestbedProcess } from "./test-support/testbed-process.ts";

let server: TestbedProcess;
let folder: string;
beforeAll(async () => {
  server = await startTestbedProcess();
  folder = await mkdtemp(join(tmpdir(), "taillab-secret-"));
});
afterAll(async () => {
  await server.kill();
  await rm(folder, { recursive: true, force: true });
});

/** A small run against the server with its access key as a flag and `secretFlags` for the rest. */
const runArgs = (...secretFlags: string[]) => [
  ...["run", "--endpoint", server.url, "-accessKey", server.env.AWS_ACCESS_KEY_ID],
  ...secretFlags,
  ...["--clients", "1", "--samples", "4", "--size", "1KiB", "--results", folder],
];

const PS_WARNING =
  "taillab run: warning: a secret key on the command line is visible to every user of this machine (ps) while the command runs; give --secret-file PATH or -accessSecret - (standard input)";

async function secretFile(name: string, mode: number): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, `${server.env.AWS_SECRET_ACCESS_KEY}\n`);
  await chmod(path, mode);
  return path;
}

describe("the secret key, kept off the command line", () => {
  it("on the command line: it works, and says once that ps shows it", async () => {
    const result = await runCli(runArgs("-accessSecret", server.env.AWS_SECRET_ACCESS_KEY));
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n").filter((line) => line === PS_WARNING)).toHaveLength(1);
  });

  it("from a file of yours (--secret-file): no warning", async () => {
    const path = await secretFile("secret", 0o600);
    const result = await runCli(runArgs("--secret-file", path));
    expect(result.code).toBe(0);
    expect(stderrBesideClientWarnings(result.stderr)).not.toContain("warning");
  });

  it("from a file others can read: it works, and says so", async () => {
    const path = await secretFile("shared-secret", 0o644);
    const result = await runCli(runArgs("--secret-file", path));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `taillab run: warning: ${path} can be read by other users (mode 0644): chmod 600 ${path}\n`,
    );
  });

  it("from standard input (-accessSecret -): no warning", async () => {
    const run = startCli(runArgs("-accessSecret", "-"));
    run.child.stdin.end(`${server.env.AWS_SECRET_ACCESS_KEY}\n`);
    const result = await run.result;
    expect(result.code).toBe(0);
    expect(stderrBesideClientWarnings(result.stderr)).not.toContain("warning");
  });

  it("a missing file, an empty standard input, or a file beside a key: one line, exit 2", async () => {
    const missing = join(folder, "no-such-file");
    const noFile = await runCli(runArgs("--secret-file", missing));
    expect(noFile.code).toBe(2);
    expect(noFile.stderr.trim().split("\n")).toHaveLength(1);
    expect(noFile.stderr).toContain(`secret-file: cannot read ${missing}`);

    const empty = startCli(runArgs("-accessSecret", "-"));
    empty.child.stdin.end();
    const emptyResult = await empty.result;
    expect(emptyResult.code).toBe(2);
    expect(emptyResult.stderr).toContain("standard input held no secret key");

    const path = await secretFile("both", 0o600);
    const both = await runCli(runArgs("--secret-file", path, "-accessSecret", "x"));
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give --secret-file or --secret-key, not both");
  });
});
