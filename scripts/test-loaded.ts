/**
 * `pnpm test:loaded [--hogs N] [--e2e]`: `pnpm test`'s vitest run (and the servers and browser it
 * needs) with N CPU-bound processes beside it (default 2), the machine as busy as a shared CI
 * host; `--e2e` runs the Playwright tests under the same load too. Prints the same
 * `N passed, N failed` lines as `pnpm test`. A test that passes only on an idle machine fails here.
 */
import { parseArgs } from "node:util";
import { startCpuHogs } from "./cpu-hogs.ts";
import {
  printCounts,
  runChecks,
  runPlaywright,
  runVitest,
  TOOL_CHECKS,
  type Counts,
} from "./test-steps.ts";

const { values } = parseArgs({
  options: {
    hogs: { type: "string", default: "2" },
    e2e: { type: "boolean", default: false },
  },
});
const hogCount = Number(values.hogs);
if (!Number.isInteger(hogCount) || hogCount < 0 || hogCount > 256) {
  process.stderr.write(
    `test:loaded: --hogs: expected a whole number from 0 to 256, got "${values.hogs}"\n`,
  );
  process.exit(2);
}

// The servers are built before the load starts: a first build takes minutes, and it is not
// what is being tested.
const checks = runChecks(TOOL_CHECKS);
const hogs = startCpuHogs(hogCount);
process.stdout.write(`\n${hogCount} CPU-bound processes running beside the tests\n`);
let lines: [string, Counts][];
try {
  lines = [
    ["checks", checks],
    ["vitest", runVitest()],
  ];
  if (values.e2e) lines.push(["playwright", runPlaywright()]);
} finally {
  hogs.stop();
}
printCounts(lines);
process.exitCode = lines.some(([, counts]) => counts.failed > 0) ? 1 : 0;
