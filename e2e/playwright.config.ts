import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from "@taillab/test-support";

/**
 * The real UI and the real backend through apps/web, in Debian's Chromium (Playwright's own
 * browser download cannot reach its servers here). Two projects: headless, and headed when a
 * display exists (CI runs the suite under xvfb-run).
 */
const browser = {
  browserName: "chromium" as const,
  viewport: { width: 1440, height: 900 },
  launchOptions: { executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS },
  // A control that never appears fails in seconds, not at the test's timeout.
  actionTimeout: 15_000,
  screenshot: "only-on-failure" as const,
  trace: "retain-on-failure" as const,
};

/**
 * The specs that run the built-in labs and judge their latency (the tail lab's three runs, the
 * lecturer's journey through them, the live lab's seconds) run one at a time: two labs side by
 * side on a loaded machine (load 40) missed their 150 s wait for the comparison. `pnpm test`
 * runs them in a pass of their own, after the rest, so no other test runs beside them either.
 */
export const LAB_SPECS = ["tail-latency.spec.ts", "lecturer-journey.spec.ts", "live-lab.spec.ts"];

export default defineConfig({
  testDir: "./specs",
  outputDir: "../test-results/e2e",
  globalSetup: "./support/global-setup.ts",
  // Two tests at a time on this 2-core machine: each starts its own backend and testbed on free
  // ports, and most of its time is spent waiting on them and the browser. The labs, one at a time.
  workers: 2,
  fullyParallel: true,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.E2E_JSON_REPORT ?? "../test-results/e2e/report.json" }],
  ],
  projects: [
    { name: "headless", use: { ...browser, headless: true }, testIgnore: LAB_SPECS },
    {
      name: "labs",
      use: { ...browser, headless: true },
      testMatch: LAB_SPECS,
      workers: 1,
      fullyParallel: false,
      // Its own folder: a pass of the labs alone does not clear the other tests' artifacts.
      outputDir: "../test-results/e2e/labs",
    },
    ...(process.env.DISPLAY
      ? [
          {
            name: "headed",
            use: { ...browser, headless: false },
            testIgnore: LAB_SPECS,
            grep: /@headed/,
          },
        ]
      : []),
  ],
});
