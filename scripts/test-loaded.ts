/**
 * `pnpm test:loaded [--hogs N] [--no-e2e]`: what `pnpm test` does — format, lint and type checks,
 * vitest and the Playwright tests — with N CPU-bound processes beside it (default 2), the machine
 * as busy as a shared CI host; `--no-e2e` leaves the Playwright tests out. Prints the same
 * `N passed, N failed` lines as `pnpm test`. Without e2e it needs no browser: Chromium is
 * neither checked nor installed, and vitest's browser files are left out too. A test that passes
 * only on an idle machine fails here.
 */
import { parseArgs } from "node:util";
import { startCpuHogs } from "./cpu-hogs.ts";
import {
  CODE_CHECKS,
  loadedPlan,
  printCounts,
  runChecks,
  runPlaywright,
  runVitest,
  type Counts,
} from "./test-steps.ts";

function usageError(message: string): never {
  process.stderr.write(`test:loaded: ${message}\n`);
  process.exit(2);
}

let values: { hogs: string; e2e: boolean };
try {
  ({ values } = parseArgs({
    options: {
      hogs: { type: "string", default: "2" },
      e2e: { type: "boolean", default: true },
    },
    allowNegative: true,
  }));
} catch (error) {
  usageError(`${(error as Error).message} (flags: --hogs N, --no-e2e)`);
}
const hogCount = Number(values.hogs);
if (!Number.isInteger(hogCount) || hogCount < 0 || hogCount > 256) {
  usageError(`--hogs: expected a whole number from 0 to 256, got "${values.hogs}"`);
}

// The servers and the browser are built and installed before the load starts: a first build
// takes minutes, and it is not what is being tested. Everything else runs under the load.
const plan = loadedPlan({ e2e: values.e2e });
const toolChecks = await runChecks(plan.toolChecks, 1);
const hogs = startCpuHogs(hogCount);
process.stdout.write(`\n${hogCount} CPU-bound processes running beside the tests\n`);
let lines: [string, Counts][];
try {
  const codeChecks = await runChecks(CODE_CHECKS);
  lines = [
    [
      "checks",
      {
        passed: toolChecks.passed + codeChecks.passed,
        failed: toolChecks.failed + codeChecks.failed,
      },
    ],
    ["vitest", runVitest(plan.vitestArgs)],
  ];
  if (values.e2e) lines.push(["playwright", runPlaywright()]);
} finally {
  hogs.stop();
}
printCounts(lines);
process.exitCode = lines.some(([, counts]) => counts.failed > 0) ? 1 : 0;
