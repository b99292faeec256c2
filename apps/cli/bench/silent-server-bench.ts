/**
 * `pnpm bench silent-server [path/to/bin/taillab.js]`: issue 23's figure. `taillab run --clients
 * 8 --samples 400000 --size 1KiB` with the default `--request-timeout 60s` against the embedded
 * testbed behind a proxy that holds every reply from 5 s after the run started (a server that
 * stopped answering): the run's wall time and exit code. A run that waited out a timeout per
 * phase and per cleanup batch took about four timeouts (245 s, exit 4); one that probes once and
 * ends takes about one timeout and the probe. Another checkout's CLI can be timed by its path.
 */
import { startTestbedServer } from "@taillab/backend";
import { startDrippingProxy } from "@taillab/test-support";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAIN } from "../src/test-support/run-cli.ts";

const ANSWERS_FOR_MS = 5_000;
const cli = process.argv[2] ?? CLI_MAIN;

const libraryDir = await mkdtemp(join(tmpdir(), "taillab-silent-server-"));
const testbed = await startTestbedServer({ buckets: ["loadgen"] });
const proxy = await startDrippingProxy({ host: "127.0.0.1", port: testbed.port });
try {
  const args = ["run", "--endpoint", proxy.url, "--clients", "8", "--samples", "400000"];
  args.push("--size", "1KiB", "--results", libraryDir);
  process.stderr.write(`silent-server: ${cli} ${args.join(" ")}\n`);
  const startedAt = performance.now();
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, AWS_ACCESS_KEY_ID: "any", AWS_SECRET_ACCESS_KEY: "any" },
  });
  const hang = setTimeout(() => {
    process.stderr.write("silent-server: the proxy holds every reply from now on\n");
    proxy.hang();
  }, ANSWERS_FOR_MS);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(hang);
  const wallS = (performance.now() - startedAt) / 1000;
  process.stdout.write(`silent-server: wall ${wallS.toFixed(1)} s, exit ${code}\n`);
} finally {
  await proxy.close();
  await testbed.close();
  await rm(libraryDir, { recursive: true, force: true });
}
