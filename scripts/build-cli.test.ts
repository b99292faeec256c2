import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The CLI bundle the container image carries (scripts/build-cli.ts, Containerfile), built into a
 * temporary folder and run from there alone, as the image runs it.
 */

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
let outdir: string;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), "taillab-cli-bundle-"));
  await run(process.execPath, [join(root, "scripts", "build-cli.ts"), "--outdir", outdir]);
});

const taillab = (...args: string[]) =>
  run(process.execPath, [join(outdir, "taillab.mjs"), ...args], {
    cwd: outdir,
    env: { ...process.env, TAILLAB_RESULTS_DIR: join(outdir, "results") },
  });

describe("the bundled CLI", () => {
  it("runs an open loop on the embedded testbed with its worker threads beside it", async () => {
    const { stdout, stderr } = await taillab(
      ...["run", "--clients", "2", "--size", "1KiB", "--rate", "200/s", "--duration", "1s"],
    );
    expect(stdout).toMatch(/Results Summary for Write Operation/);
    // Nothing deprecated pulled into the bundle in place of what a dependency ships itself.
    expect(stderr).not.toMatch(/DeprecationWarning/);
  });

  it("prints a distributed run's manifests (the Kubernetes client is in the bundle)", async () => {
    const spec = join(outdir, "spec.json");
    await writeFile(
      spec,
      JSON.stringify({
        endpoints: [{ url: "http://minio:9000" }],
        clients: 4,
        samples: 40,
        objectSize: 1024,
      }),
    );
    const { stdout } = await taillab(
      "k8s",
      "manifest",
      spec,
      "--shards",
      "2",
      "--kubeconfig",
      spec,
    );
    expect(stdout).toMatch(/kind: Job/);
    expect(stdout).toMatch(/completions: 2/);
  });

  it("is what the Containerfile copies", async () => {
    const containerfile = await readFile(join(root, "Containerfile"), "utf8");
    for (const file of ["taillab.mjs", "client-worker.mjs", "schedule-pacer-worker.mjs"]) {
      expect(containerfile).toContain(`apps/cli/dist/${file}`);
    }
    expect(containerfile).toMatch(/^FROM docker\.io\/library\/node:24-slim$/m);
  });
});
