import { defineConfig } from "@playwright/test";
import { electronUnavailableReason, findElectronBinary } from "../scripts/electron-binary.ts";

// Reporters list skipped tests without their reason: say it once, from the runner.
const unavailable = electronUnavailableReason(findElectronBinary());
if (unavailable !== null && process.env.TEST_WORKER_INDEX === undefined) {
  process.stdout.write(`e2e:electron: the desktop app's tests are skipped: ${unavailable}\n`);
}

/** The desktop app's own end-to-end checks; `pnpm e2e:electron` runs them (not part of CI). */
export default defineConfig({
  testDir: ".",
  timeout: 60_000,
  workers: 1,
  reporter: "list",
  outputDir: "../../test-results/electron",
});
