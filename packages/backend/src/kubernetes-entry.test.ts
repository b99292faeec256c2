import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

/**
 * The Kubernetes client takes a few hundred ms to load: `@taillab/backend` (every host, every
 * CLI command) must not load it; `@taillab/backend/kubernetes` does, when a run goes to a cluster.
 */

const run = promisify(execFile);
const BACKEND = fileURLToPath(new URL("./index.ts", import.meta.url));
const ENTRY = fileURLToPath(new URL("./kubernetes.ts", import.meta.url));

/** The bare specifiers a module's import resolved, in a fresh Node. */
async function packagesLoadedBy(path: string): Promise<string[]> {
  const script = `
    import { registerHooks } from "node:module";
    const seen = new Set();
    registerHooks({ resolve(specifier, context, next) {
      if (!specifier.startsWith(".") && !specifier.startsWith("node:") && !specifier.startsWith("file:")) seen.add(specifier);
      return next(specifier, context);
    } });
    await import(${JSON.stringify(path)});
    console.log(JSON.stringify([...seen]));
  `;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]") as string[];
}

it("leaves the Kubernetes client out of the backend until a run goes to a cluster", async () => {
  const backend = await packagesLoadedBy(BACKEND);
  expect(backend).toContain("@aws-sdk/client-s3");
  expect(backend.filter((name) => /kubernetes/.test(name))).toEqual([]);
  const entry = await packagesLoadedBy(ENTRY);
  expect(entry).toContain("@kubernetes/client-node");
});
