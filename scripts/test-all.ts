/**
 * `pnpm test`: every check and test, in order, each reported as a plain `N passed, N failed`
 * line that CI can read. Real parts: MinIO, versitygw and a Kubernetes control plane (with kwok) are
 * built (once, into the user's cache) and Debian's Chromium installed before the tests that need them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

function run(command: string, args: string[], env: Record<string, string> = {}): boolean {
  process.stdout.write(`\n$ ${[command, ...args].join(" ")}\n`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

const checks: [string, () => boolean][] = [
  ["format", () => run("pnpm", ["exec", "prettier", "--check", "."])],
  ["lint", () => run("pnpm", ["exec", "eslint", "."])],
  ["typecheck", () => run("pnpm", ["exec", "tsc", "-p", "tsconfig.json"])],
  // The renderer is bundled by Vite: its own compiler settings (bundler resolution, DOM types).
  ["typecheck ui", () => run("pnpm", ["exec", "tsc", "-p", "apps/ui/tsconfig.json"])],
  ["minio", () => run("bash", ["scripts/ensure-minio.sh"])],
  ["versitygw", () => run("bash", ["scripts/ensure-versitygw.sh"])],
  ["kubernetes", () => run("bash", ["scripts/ensure-kubernetes.sh"])],
  ["chromium", () => run("bash", ["scripts/ensure-chromium.sh"])],
];
const checkResults = checks.map(([name, check]) => ({ name, ok: check() }));

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
}
const reportDir = mkdtempSync(join(tmpdir(), "taillab-vitest-"));
const reportFile = join(reportDir, "report.json");
const vitestOk = run("pnpm", [
  "exec",
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${reportFile}`,
]);
let vitest: VitestJson = { numPassedTests: 0, numFailedTests: 0 };
try {
  vitest = JSON.parse(readFileSync(reportFile, "utf8")) as VitestJson;
} catch {
  process.stdout.write("vitest wrote no report: counting the whole run as one failure\n");
  vitest.numFailedTests = 1;
}

interface PlaywrightJson {
  stats: { expected: number; unexpected: number; flaky: number };
}
const e2eReportFile = join(reportDir, "e2e.json");
// Under Xvfb so the headed project runs too; the browser is Debian's Chromium.
const e2eOk = run("xvfb-run", ["-a", "pnpm", "--dir", "e2e", "exec", "playwright", "test"], {
  E2E_JSON_REPORT: e2eReportFile,
});
let e2e = { passed: 0, failed: 0 };
try {
  const { stats } = JSON.parse(readFileSync(e2eReportFile, "utf8")) as PlaywrightJson;
  e2e = { passed: stats.expected + stats.flaky, failed: stats.unexpected };
} catch {
  process.stdout.write("playwright wrote no report: counting the whole run as one failure\n");
}
rmSync(reportDir, { recursive: true, force: true });

process.stdout.write("\n");
for (const check of checkResults) {
  if (!check.ok) process.stdout.write(`check failed: ${check.name}\n`);
}
const failedChecks = checkResults.filter((check) => !check.ok).length;
process.stdout.write(
  `checks: ${checkResults.length - failedChecks} passed, ${failedChecks} failed\n`,
);
// A suite that fails to load has no failed test of its own; count one so it cannot pass silently.
const failedTests = vitestOk ? vitest.numFailedTests : Math.max(1, vitest.numFailedTests);
process.stdout.write(`vitest: ${vitest.numPassedTests} passed, ${failedTests} failed\n`);
const failedE2e = e2eOk ? e2e.failed : Math.max(1, e2e.failed);
process.stdout.write(`playwright: ${e2e.passed} passed, ${failedE2e} failed\n`);
process.exitCode = failedChecks > 0 || !vitestOk || !e2eOk ? 1 : 0;
