import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/**
 * The files that run one at a time, alone on the machine. Those that compare what a run measured
 * with the wire, a clock or a model (the stalls a profile puts in, an open loop's spacing): another
 * file's load generator would eat into the margins they check. And those that move objects of
 * 2 GiB through one process: beside the run of 4 GiB + 1 byte (huge-object.test.ts, 8.6 GB at its
 * peak) they could run the machine out of memory. That run checks no clock, so it goes beside one
 * of the files of small objects, as every other file does: tests may not depend on how busy the
 * machine is (`pnpm test:loaded`).
 */
const FILES_RUN_ALONE = [
  "packages/backend/src/wire-truth.test.ts",
  "packages/backend/src/wire-count.test.ts",
  "packages/backend/src/tail-modes.test.ts",
  "packages/backend/src/coordinated-omission.test.ts",
  "packages/backend/src/app/built-in-experiments.test.ts",
  "packages/engine/src/client-health.test.ts",
  "packages/engine/src/point-run.test.ts",
  "packages/engine/src/run-clock.test.ts",
  "packages/engine/src/open-loop-schedule.test.ts",
  "packages/engine/src/transport/connect-upload-timing.test.ts",
  "packages/testbed/src/testbed-replicas.test.ts",
  // Bounds when a run ends by its request timeout and probe deadline, on the run's own clock: a
  // lone client's run ended 17 s after the silence, beyond 15 s, beside another file.
  "apps/cli/src/server-silence.test.ts",
  "packages/engine/src/object-content.test.ts",
  "packages/engine/src/transport/hash-in-pieces.test.ts",
];

const NODE_FILES = [
  "packages/*/src/**/*.test.ts",
  "apps/{cli,web}/src/**/*.test.ts",
  "electron/{src,scripts}/**/*.test.ts",
  "scripts/**/*.test.ts",
];

export default defineConfig({
  test: {
    // A safety net against a test that hangs, not a speed check: integration tests start real
    // S3 servers, and on a busy 2-core machine (`pnpm test:loaded --hogs 8`) a test can take ten
    // times as long as on an idle one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // Two files at a time on this 2-core machine: most of a file's time is spent waiting on the
    // servers and processes it started.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "alone",
          include: FILES_RUN_ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "node",
          // Left out by negated patterns, not `exclude`: a project's `exclude` would replace the
          // one given on the command line (`pnpm test:loaded --no-e2e`).
          include: [...NODE_FILES, ...FILES_RUN_ALONE.map((file) => `!${file}`)],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: "ui",
          include: ["apps/ui/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
