import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createApiClient,
  dispatchApiCall,
  EMBEDDED_TESTBED_ENDPOINT_ID,
  type RunEvent,
} from "@taillab/api";
import type * as Backend from "@taillab/backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The desktop app's bundles, built by the real build script, run in plain Node (no Electron
 * binary here): the bundled backend, required from CommonJS, runs a small benchmark on the
 * embedded testbed, so its worker threads start from the worker bundle. Once laid out as in a
 * checkout (`pnpm start`), once as in a package: resources/app.asar/dist, with the worker moved
 * to app.asar.unpacked/dist as electron-builder's `asarUnpack` does. Both lie outside the
 * repository, so nothing can be found in its node_modules or its TypeScript sources.
 */

const electronDir = join(import.meta.dirname, "..");
const rootPackage = JSON.parse(readFileSync(join(electronDir, "..", "package.json"), "utf8")) as {
  version: string;
};
let folder: string;
let checkoutDist: string;
let packagedDist: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "taillab-bundles-"));
  checkoutDist = join(folder, "checkout", "dist");
  const built = spawnSync(
    process.execPath,
    [join(electronDir, "scripts", "build.ts"), "--outdir", checkoutDist],
    { encoding: "utf8" },
  );
  expect(built.status, built.stderr).toBe(0);
  packagedDist = join(folder, "resources", "app.asar", "dist");
  cpSync(checkoutDist, packagedDist, { recursive: true });
  const unpackedDist = join(folder, "resources", "app.asar.unpacked", "dist");
  mkdirSync(unpackedDist, { recursive: true });
  for (const worker of ["client-worker.cjs", "schedule-pacer-worker.cjs"]) {
    renameSync(join(packagedDist, worker), join(unpackedDist, worker));
  }
});
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/**
 * Requires `dist`'s backend.cjs and runs a three-phase open-loop benchmark on the embedded
 * testbed: both of the engine's worker threads (client workers and the schedule's pacer).
 */
async function benchmarkWithBundledBackend(dist: string) {
  const backend = createRequire(import.meta.url)(join(dist, "backend.cjs")) as typeof Backend;
  const dataDir = mkdtempSync(join(folder, "data-"));
  const service = await backend.createTailLabService({
    host: "electron",
    version: "0.0.0-test",
    dataDir,
    resultsDir: join(dataDir, "results"),
    secretCipher: backend.passphraseCipher("test passphrase"),
    env: {},
  });
  try {
    const api = createApiClient(
      (name, input) => dispatchApiCall(service, name, input),
      (listener) => service.onRunEvent(listener),
    );
    const finished = new Promise<RunEvent>((resolve) => {
      const stop = api.onRunEvent((event) => {
        if (event.type !== "finished") return;
        stop();
        resolve(event);
      });
    });
    const { runId } = await api.startRun({
      experiment: {
        name: "Bundled",
        endpointId: EMBEDDED_TESTBED_ENDPOINT_ID,
        spec: { clients: 2, objectSize: "1KiB", samples: 200, openLoop: { rateHz: "400/s" } },
      },
    });
    return { runId, finished: await finished, detail: await api.getRun({ runId }) };
  } finally {
    await service.close();
  }
}

describe.each([
  { layout: "a checkout", dist: () => checkoutDist },
  { layout: "a package (worker in app.asar.unpacked)", dist: () => packagedDist },
])("the bundled backend, laid out as in $layout", ({ dist }) => {
  it("runs an open-loop benchmark on the embedded testbed with bundled worker threads", async () => {
    const { runId, finished, detail } = await benchmarkWithBundledBackend(dist());
    expect(finished).toMatchObject({ type: "finished", runId, status: "complete", error: null });
    expect(detail.summary.points[0]?.phases).toEqual([
      expect.objectContaining({ op: "PUT", requests: 200, errors: 0 }),
      expect.objectContaining({ op: "GET", requests: 200, errors: 0 }),
      expect.objectContaining({ op: "DELETE", requests: 200, errors: 0 }),
    ]);
    // The root package.json's version travels inside the bundle.
    expect(detail.meta.environment.taillabVersion).toBe(rootPackage.version);
  });
});

describe("the bundles a package needs", () => {
  it("main.cjs requires the backend beside it, and otherwise only Electron and Node", () => {
    const main = readFileSync(join(checkoutDist, "main.cjs"), "utf8");
    const required = new Set([...main.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!));
    expect(required).toContain("./backend.cjs");
    expect(required).toContain("electron");
    const others = [...required].filter(
      (id) => id !== "./backend.cjs" && id !== "electron" && !id.startsWith("node:"),
    );
    expect(others).toEqual([]);
  });

  it("electron-builder packs every bundle and unpacks the worker from the asar", () => {
    const bundles = [
      "main.cjs",
      "backend.cjs",
      "client-worker.cjs",
      "schedule-pacer-worker.cjs",
      "preload.cjs",
    ];
    for (const bundle of bundles) {
      expect(existsSync(join(checkoutDist, bundle)), bundle).toBe(true);
    }
    const config = readFileSync(join(electronDir, "electron-builder.yml"), "utf8");
    expect(config).toMatch(/^files:\n(?: {2}.*\n)*? {2}- dist\/\*\.cjs$/m);
    expect(config).toMatch(
      /^asarUnpack:\n {2}- dist\/client-worker\.cjs\n {2}- dist\/schedule-pacer-worker\.cjs$/m,
    );
  });
});
