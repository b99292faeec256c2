import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadedPlan, TOOL_CHECKS } from "./test-steps.ts";

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
