import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadedPlan, PLAYWRIGHT_PASSES, TOOL_CHECKS } from "./test-steps.ts";

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
