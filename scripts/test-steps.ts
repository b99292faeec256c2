/**
 * The steps of `pnpm test` and `pnpm test:loaded`: checks (a command that passes or fails) and the
 * two test runners (vitest, Playwright), each summed up as the plain `N passed, N failed` line CI
 * reads.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

/**
 * A step's command, its output and errors both on this process's stdout, in the order written:
 * a log that keeps stdout alone still holds why a step failed (a test process's last words, as a
 * failed V8 check prints them to the stderr vitest passes on).
 */
function run(command: string, args: string[], env: Record<string, string> = {}): boolean {
  process.stdout.write(`\n$ ${[command, ...args].join(" ")}\n`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ["inherit", "inherit", process.stdout.fd],
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

/**
 * A check's command, started without a terminal: checks run side by side, so each one's output
 * is held and printed whole once it ends, never interleaved with another's.
 */
function runQuietly(command: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => resolve({ ok: false, output: `${output}${error.message}\n` }));
    child.on("close", (code) => resolve({ ok: code === 0, output }));
  });
}

export interface Check {
  name: string;
  command: string;
  args: string[];
}

/**
 * One compiler config per layer, so code that crosses its layer fails the type check: the pure
 * packages have neither Node nor DOM types, the renderer and the web host's page script DOM only,
 * the Node packages Node only; e2e and browser tests drive a page from Node and have both, and so
 * does the renderer's build config (vite.config.ts), kept out of the renderer's own.
 * scripts/layer-types.test.ts checks the files each layer's program reads.
 */
const TYPE_CHECK_CONFIGS = [
  "tsconfig.json",
  "tsconfig.pure.json",
  "tsconfig.browser.json",
  "tsconfig.e2e.json",
  "apps/ui/tsconfig.json",
  "apps/ui/tsconfig.test.json",
  "apps/ui/tsconfig.vite.json",
];

export const TYPE_CHECK_CHECKS: readonly Check[] = TYPE_CHECK_CONFIGS.map((config) => ({
  name: `typecheck ${config}`,
  command: "pnpm",
  args: ["exec", "tsc", "-p", config],
}));

/** Format, lint and type checks: about the code, not needed to run it. */
export const CODE_CHECKS: readonly Check[] = [
  { name: "format", command: "pnpm", args: ["exec", "prettier", "--check", "."] },
  { name: "lint", command: "pnpm", args: ["exec", "eslint", "."] },
  ...TYPE_CHECK_CHECKS,
];

/** The real servers and browser the tests run against, built or installed once. */
export const TOOL_CHECKS: readonly Check[] = [
  { name: "minio", command: "bash", args: ["scripts/ensure-minio.sh"] },
  { name: "versitygw", command: "bash", args: ["scripts/ensure-versitygw.sh"] },
  { name: "kubernetes", command: "bash", args: ["scripts/ensure-kubernetes.sh"] },
  { name: "chromium", command: "bash", args: ["scripts/ensure-chromium.sh"] },
  { name: "prometheus", command: "bash", args: ["scripts/ensure-prometheus.sh"] },
];

/** vitest's files that drive Debian's Chromium (the HTML report's rendering). */
export const BROWSER_TEST_FILES = "**/*.browser.test.ts";

/**
 * What `pnpm test:loaded` runs: without the browser tests (`--no-e2e`), neither Chromium's check
 * (which installs it with apt, and fails when another process holds apt's lock) nor the vitest
 * files that need it.
 */
export function loadedPlan({ e2e }: { e2e: boolean }): {
  toolChecks: readonly Check[];
  vitestArgs: string[];
} {
  return e2e
    ? { toolChecks: TOOL_CHECKS, vitestArgs: [] }
    : {
        toolChecks: TOOL_CHECKS.filter((check) => check.name !== "chromium"),
        vitestArgs: [`--exclude=${BROWSER_TEST_FILES}`],
      };
}

export interface Counts {
  passed: number;
  failed: number;
}

/**
 * Runs the checks, `concurrency` at a time, printing each one's output whole as it ends; then
 * which failed. The code checks go one per core (each is one single-threaded compiler or linter);
 * the tool checks one at a time (a first build uses every core, Chromium's install holds apt's
 * lock).
 */
export async function runChecks(
  checks: readonly Check[],
  concurrency = availableParallelism(),
): Promise<Counts> {
  const results: { name: string; ok: boolean }[] = [];
  let next = 0;
  const runner = async () => {
    for (let check = checks[next++]; check; check = checks[next++]) {
      const { ok, output } = await runQuietly(check.command, check.args);
      process.stdout.write(`\n$ ${[check.command, ...check.args].join(" ")}\n${output}`);
      results.push({ name: check.name, ok });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, runner));
  process.stdout.write("\n");
  for (const result of results) {
    if (!result.ok) process.stdout.write(`check failed: ${result.name}\n`);
  }
  const failed = results.filter((result) => !result.ok).length;
  return { passed: results.length - failed, failed };
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

/**
 * A runner whose process failed without a failing test of its own (a suite that does not load,
 * a crash) counts one failure, so it cannot pass silently.
 */
function countedFailures(ok: boolean, failed: number): number {
  return ok ? failed : Math.max(1, failed);
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
}

/** The parts of a Node.js diagnostic report (`--report-on-fatalerror`) that say why it died. */
export interface FatalErrorReport {
  header: { event: string; trigger: string; processId: number; commandLine: string[] };
  javascriptStack: { message: string; stack?: string[] };
  nativeStack: { pc: string; symbol: string }[];
}

/** Enough of the native stack to show where the process died, under the report's own frames. */
const NATIVE_FRAMES_SHOWN = 12;

/** The frames that write the report: the same in every one, and not where the process died. */
const REPORT_FRAMES = /^node::(TriggerNodeReport|OnFatalError|OOMErrorHandler)\b/;

/** A fatal error report as lines for the log: the event, the process, its JS and native stacks. */
export function describeFatalErrorReport({
  header,
  javascriptStack,
  nativeStack,
}: FatalErrorReport): string {
  // A symbol ends with the binary it is in, the same node binary nearly every time.
  const frames = nativeStack
    .map(({ pc, symbol }) => symbol.replace(/\s*\[[^\]]*\]$/, "") || pc)
    .filter((frame) => !REPORT_FRAMES.test(frame));
  return [
    `node process ${header.processId} died: ${header.event} (${header.trigger})`,
    `  command: ${header.commandLine.join(" ")}`,
    `  JavaScript stack: ${javascriptStack.message}`,
    ...(javascriptStack.stack ?? []).map((line) => `    ${line.trim()}`),
    "  native stack:",
    ...frames.slice(0, NATIVE_FRAMES_SHOWN).map((frame) => `    ${frame}`),
    "",
  ].join("\n");
}

/**
 * Node options under which a test process that dies of a fatal error (out of memory, say) writes
 * a report into `directory`, without the environment (it holds credentials). vitest's "Worker
 * exited unexpectedly" names only the signal; a failed V8 check (SIGTRAP) writes no report but
 * prints its reason to the fork's stderr, which vitest passes on to its own.
 */
export function withFatalErrorReports(nodeOptions: string | undefined, directory: string): string {
  return [
    nodeOptions,
    "--report-on-fatalerror",
    "--report-exclude-env",
    `--report-directory=${directory}`,
  ]
    .filter(Boolean)
    .join(" ");
}

/** What each report written in `directory` says: why a process of the run died. */
export function fatalErrorReportsIn(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".json"))
    .map((name) => {
      const report = readJson<FatalErrorReport>(join(directory, name));
      return report
        ? `fatal error report ${name}:\n${describeFatalErrorReport(report)}`
        : `fatal error report ${name}: unreadable\n`;
    });
}

/**
 * vitest, its counts read from its JSON report; then why any process of the run died of a fatal
 * error, from the reports it wrote.
 */
export function runVitest(extraArgs: readonly string[] = []): Counts {
  const reportDir = mkdtempSync(join(tmpdir(), "taillab-vitest-"));
  const reportFile = join(reportDir, "report.json");
  const fatalErrorDir = join(reportDir, "fatal-errors");
  mkdirSync(fatalErrorDir);
  const ok = run(
    "pnpm",
    [
      "exec",
      "vitest",
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reportFile}`,
      ...extraArgs,
    ],
    { NODE_OPTIONS: withFatalErrorReports(process.env.NODE_OPTIONS, fatalErrorDir) },
  );
  for (const fatalError of fatalErrorReportsIn(fatalErrorDir)) {
    process.stdout.write(`\n${fatalError}`);
  }
  const report = readJson<VitestJson>(reportFile);
  rmSync(reportDir, { recursive: true, force: true });
  if (!report)
    process.stdout.write("vitest wrote no report: counting the whole run as one failure\n");
  return {
    passed: report?.numPassedTests ?? 0,
    failed: countedFailures(ok && report !== null, report?.numFailedTests ?? 0),
  };
}

interface PlaywrightJson {
  stats: { expected: number; unexpected: number; flaky: number };
}

/**
 * Playwright's passes, one after the other (e2e/playwright.config.ts): the tests that do not run
 * a built-in lab two at a time, then the labs (CPU-sensitive) alone on the machine.
 */
export const PLAYWRIGHT_PASSES: readonly (readonly string[])[] = [["headless", "headed"], ["labs"]];

function runPlaywrightPass(projects: readonly string[]): Counts {
  const reportDir = mkdtempSync(join(tmpdir(), "taillab-e2e-"));
  const reportFile = join(reportDir, "e2e.json");
  const projectArgs = projects.map((project) => `--project=${project}`);
  // Under Xvfb so the headed project runs too; the browser is Debian's Chromium.
  const ok = run(
    "xvfb-run",
    ["-a", "pnpm", "--dir", "e2e", "exec", "playwright", "test", ...projectArgs],
    { E2E_JSON_REPORT: reportFile, E2E_UI_BUILT: "1" },
  );
  const report = readJson<PlaywrightJson>(reportFile);
  rmSync(reportDir, { recursive: true, force: true });
  if (!report) {
    process.stdout.write("playwright wrote no report: counting the whole pass as one failure\n");
  }
  const stats = report?.stats ?? { expected: 0, unexpected: 0, flaky: 0 };
  return {
    passed: stats.expected + stats.flaky,
    failed: countedFailures(ok && report !== null, stats.unexpected),
  };
}

/**
 * Every pass's tests, summed into the one `playwright: N passed, N failed` line. The UI they
 * serve is built once, before the first (a failed build counts one failure and runs no pass).
 */
export function runPlaywright(): Counts {
  if (!run("pnpm", ["build:ui"])) {
    process.stdout.write("building the UI failed: no Playwright pass runs\n");
    return { passed: 0, failed: 1 };
  }
  return PLAYWRIGHT_PASSES.map(runPlaywrightPass).reduce((sum, pass) => ({
    passed: sum.passed + pass.passed,
    failed: sum.failed + pass.failed,
  }));
}

/** The closing lines, one per step: `checks: N passed, N failed`, `vitest: …`, `playwright: …`. */
export function printCounts(lines: readonly [string, Counts][]): void {
  process.stdout.write("\n");
  for (const [name, counts] of lines) {
    process.stdout.write(`${name}: ${counts.passed} passed, ${counts.failed} failed\n`);
  }
}
