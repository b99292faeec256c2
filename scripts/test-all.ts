/**
 * `pnpm test`: every check and test, in order, each reported as a plain `N passed, N failed`
 * line that CI can read. Real parts: MinIO, versitygw and a Kubernetes control plane (with kwok) are
 * built (once, into the user's cache) and Debian's Chromium installed before the tests that need them.
 */
import {
  CODE_CHECKS,
  printCounts,
  runChecks,
  runPlaywright,
  runVitest,
  TOOL_CHECKS,
} from "./test-steps.ts";

const codeChecks = await runChecks(CODE_CHECKS);
const toolChecks = await runChecks(TOOL_CHECKS, 1);
const checks = {
  passed: codeChecks.passed + toolChecks.passed,
  failed: codeChecks.failed + toolChecks.failed,
};
const vitest = runVitest();
const playwright = runPlaywright();
printCounts([
  ["checks", checks],
  ["vitest", vitest],
  ["playwright", playwright],
]);
process.exitCode = checks.failed + vitest.failed + playwright.failed > 0 ? 1 : 0;
