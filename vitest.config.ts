import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A safety net against a test that hangs, not a speed check: integration tests start real
    // S3 servers, and on a busy 2-core machine (`pnpm test:loaded --hogs 8`) a test can take ten
    // times as long as on an idle one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // Many tests measure latency against real servers on this 2-core machine: files run one at a
    // time so one file's load generator does not distort another's figures.
    fileParallelism: false,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: [
            "packages/*/src/**/*.test.ts",
            "apps/{cli,web}/src/**/*.test.ts",
            "electron/{src,scripts}/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: "ui",
          include: ["apps/ui/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
        },
      },
    ],
  },
});
