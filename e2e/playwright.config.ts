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

export default defineConfig({
  testDir: "./specs",
  outputDir: "../test-results/e2e",
  globalSetup: "./support/global-setup.ts",
  // One backend and one 2-core machine: tests measure real latency, so they run one at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.E2E_JSON_REPORT ?? "../test-results/e2e/report.json" }],
  ],
  projects: [
    { name: "headless", use: { ...browser, headless: true } },
    ...(process.env.DISPLAY
      ? [{ name: "headed", use: { ...browser, headless: false }, grep: /@headed/ }]
      : []),
  ],
});
