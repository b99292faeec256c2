import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  describeFatalErrorReport,
  fatalErrorReportsIn,
  loadedPlan,
  PLAYWRIGHT_PASSES,
  TOOL_CHECKS,
  withFatalErrorReports,
} from "./test-steps.ts";

const root = join(import.meta.dirname, "..");

/** The test files vitest would run with these arguments, relative to the repository. */
function vitestFiles(args: readonly string[]): string[] {
  const listed = spawnSync(
    "pnpm",
    ["exec", "vitest", "list", "--filesOnly", "--project", "node", ...args],
    { cwd: root, encoding: "utf8" },
  );
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout
    .split("\n")
    .filter((line) => line.endsWith(".ts"))
    .map((line) => line.replace(/^\[node\] /, "").replace(`${root}/`, ""));
}

describe("pnpm test:loaded's plan", () => {
  it("--no-e2e needs no browser: no Chromium check, no vitest file that drives Chromium", () => {
    const plan = loadedPlan({ e2e: false });
    expect(plan.toolChecks.map((check) => check.name)).toEqual([
      "minio",
      "versitygw",
      "kubernetes",
      "prometheus",
    ]);
    expect(existsSync(join(root, "packages/report/src/html-report.browser.test.ts"))).toBe(true);
    const files = vitestFiles(plan.vitestArgs);
    expect(files).toContain("packages/report/src/html-report.test.ts");
    expect(files.filter((file) => file.endsWith(".browser.test.ts"))).toEqual([]);
  });

  it("with e2e, everything: Chromium checked, the browser files run", () => {
    const plan = loadedPlan({ e2e: true });
    expect(plan.toolChecks).toEqual(TOOL_CHECKS);
    expect(vitestFiles(plan.vitestArgs)).toContain(
      "packages/report/src/html-report.browser.test.ts",
    );
  });
});

/** The Playwright tests of these projects (all when none), as `--list` names them. */
function playwrightTests(projects: readonly string[]): string[] {
  const listed = spawnSync(
    "pnpm",
    [
      "--dir",
      "e2e",
      "exec",
      "playwright",
      "test",
      "--list",
      ...projects.map((p) => `--project=${p}`),
    ],
    // A display, as under xvfb-run, so the headed project is listed too; --list opens none.
    { cwd: root, encoding: "utf8", env: { ...process.env, DISPLAY: ":0" } },
  );
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout.split("\n").filter((line) => /^ {2}\[/.test(line));
}

describe("pnpm test's Playwright passes", () => {
  it("run every test of every project once: the labs in a pass of their own", () => {
    const passes = PLAYWRIGHT_PASSES.map(playwrightTests);
    expect(passes.flat().sort()).toEqual(playwrightTests([]).sort());
    expect(passes.at(-1)?.length).toBeGreaterThan(0);
    expect(passes.at(-1)?.every((test) => test.startsWith("  [labs] "))).toBe(true);
  });
});

describe("a test process that dies of a fatal error", () => {
  it("leaves a report whose reason, process and stacks the log shows", () => {
    const directory = mkdtempSync(join(tmpdir(), "taillab-fatal-error-"));
    try {
      const died = spawnSync(
        process.execPath,
        [
          "--max-old-space-size=16",
          "-e",
          "const held = []; for (;;) held.push(Array(1e5).fill(1));",
        ],
        { env: { ...process.env, NODE_OPTIONS: withFatalErrorReports(undefined, directory) } },
      );
      expect(died.signal).toBe("SIGABRT");
      const [report, ...others] = fatalErrorReportsIn(directory);
      expect(others).toEqual([]);
      expect(report).toContain(
        `node process ${died.pid} died: Allocation failed - JavaScript heap out of memory (OOMError)`,
      );
      expect(report).toContain("--max-old-space-size=16");
      expect(report).toMatch(/native stack:\n {4}\S/);
      // The report leaves the environment out: a test's holds credentials.
      const [file] = readdirSync(directory);
      expect(readFileSync(join(directory, file!), "utf8")).not.toContain("environmentVariables");
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("keeps the options already given", () => {
    expect(withFatalErrorReports("--max-old-space-size=64", "/tmp/reports")).toBe(
      "--max-old-space-size=64 --report-on-fatalerror --report-exclude-env --report-directory=/tmp/reports",
    );
    expect(withFatalErrorReports(undefined, "/tmp/reports")).toBe(
      "--report-on-fatalerror --report-exclude-env --report-directory=/tmp/reports",
    );
  });

  it("shows where it died, not the frames that wrote the report, nor the binary on every line", () => {
    const described = describeFatalErrorReport({
      header: {
        event: "Allocation failed - JavaScript heap out of memory",
        trigger: "OOMError",
        processId: 42,
        commandLine: ["node", "forks.js"],
      },
      javascriptStack: { message: "No stack.", stack: ["Unavailable."] },
      nativeStack: [
        { pc: "0x1", symbol: "node::TriggerNodeReport(v8::Isolate*) [/usr/bin/node]" },
        { pc: "0x2", symbol: "node::OOMErrorHandler(char const*) [/usr/bin/node]" },
        { pc: "0x3", symbol: " [/usr/bin/node]" },
        { pc: "0x4", symbol: "v8::internal::Heap::CollectGarbage() [/usr/bin/node]" },
      ],
    });
    expect(described).toBe(
      [
        "node process 42 died: Allocation failed - JavaScript heap out of memory (OOMError)",
        "  command: node forks.js",
        "  JavaScript stack: No stack.",
        "    Unavailable.",
        "  native stack:",
        "    0x3",
        "    v8::internal::Heap::CollectGarbage()",
        "",
      ].join("\n"),
    );
  });
});
