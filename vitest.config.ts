import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Integration tests start real S3 servers; give them room on a 2-core machine.
    testTimeout: 120_000,
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
