import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { ComparePage } from "../pages/compare-page.ts";
import { RunsPage } from "../pages/runs-page.ts";
import { downloadFrom } from "../support/downloads.ts";

/** Runs in the seeded library: a daily user's, past the 78 the issue found the library failing at. */
const SEEDED = 80;

/**
 * Copies a stored run's folder under a new id, name and date, as the library would hold another
 * run of it: the store reads the copies as it reads any folder (the index is rebuilt from them).
 */
async function copyRun(
  resultsDir: string,
  runId: string,
  copy: { id: string; name: string; createdAt: string; status?: string },
): Promise<void> {
  const folder = join(resultsDir, copy.id);
  await cp(join(resultsDir, runId), folder, { recursive: true });
  const metaPath = join(folder, "run.json");
  const meta = JSON.parse(await readFile(metaPath, "utf8")) as Record<string, unknown>;
  Object.assign(meta, { id: copy.id, name: copy.name, createdAt: copy.createdAt });
  if (copy.status) meta.status = copy.status;
  await writeFile(metaPath, JSON.stringify(meta));
  const summaryPath = join(folder, "summary.json");
  const summary = JSON.parse(await readFile(summaryPath, "utf8")) as Record<string, unknown>;
  await writeFile(summaryPath, JSON.stringify({ ...summary, runId: copy.id }));
}

test.describe("Results library of 80 runs", () => {
  test("sorts, filters, deletes in bulk with undo, and keeps its layout and filters across a reload", async ({
    app,
    webHost,
  }) => {
    const runs = new RunsPage(app);
    await runs.open();
    // Two real runs: a single point and a sweep of two sizes, each copied many times.
    const point = await runs.runToCompletion("Point", "testbed", {
      clients: 2,
      samples: 40,
      objectSize: "4KiB",
    });
    const sweep = await runs.runToCompletion("Sweep", "testbed", {
      clients: 2,
      samples: 40,
      objectSize: ["4KiB", "256KiB"],
    });
    const resultsDir = join(webHost.dataDir, "results");
    const start = Date.parse("2026-01-01T08:00:00.000Z");
    for (let index = 0; index < SEEDED - 2; index += 1) {
      const isSweep = index % 4 === 0;
      await copyRun(resultsDir, isSweep ? sweep : point, {
        id: `seeded-${String(index).padStart(3, "0")}`,
        name: `${isSweep ? "Sizes" : "Lab"} ${index}`,
        createdAt: new Date(start + index * 3_600_000).toISOString(),
        status: index % 10 === 5 ? "stopped" : undefined,
      });
    }
    await app.getByTestId("runs-refresh").click();
    await expect(runs.rows).toHaveCount(SEEDED);
    await keepScreenshot(app, "library-80-runs");

    // A sweep's row spans its points: p99 from its fastest to its slowest size.
    const sweepP99 = runs
      .row(sweep)
      .locator("td.headline")
      .nth(1)
      .locator(".headline-line")
      .first();
    const low = Number(await sweepP99.getAttribute("data-low"));
    const high = Number(await sweepP99.getAttribute("data-high"));
    expect(high).toBeGreaterThan(low);
    await expect(sweepP99).toHaveText(/–/);

    // Sort by the worst p99: each row's figure no lower than the next's.
    await app.getByTestId("runs-sort").selectOption("p99");
    const worstP99 = () =>
      runs.rows.evaluateAll((rows) =>
        rows.map((row) => {
          const lines = row.querySelectorAll<HTMLElement>(
            "td.headline:nth-of-type(8) .headline-line",
          );
          return Math.max(...[...lines].map((line) => Number(line.dataset.high)));
        }),
      );
    const descending = await worstP99();
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    await app.getByTestId("runs-sort-direction").click();
    await app.getByTestId("runs-compact").check();
    await expect(runs.table).toHaveAttribute("data-compact", "true");
    await app.reload();
    await runs.open();
    await expect(runs.rows).toHaveCount(SEEDED);
    await expect(app.getByTestId("runs-sort")).toHaveValue("p99");
    await expect(app.getByTestId("runs-sort-direction")).toHaveAttribute(
      "data-descending",
      "false",
    );
    await expect(runs.table).toHaveAttribute("data-compact", "true");
    const ascending = await worstP99();
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await keepScreenshot(app, "library-80-runs-compact");

    // Filters: status, kind, and the search together.
    await app.getByTestId("runs-status-filter").selectOption("stopped");
    await expect(runs.rows).toHaveCount(8);
    await app.getByTestId("runs-status-filter").selectOption("");
    await app.getByTestId("runs-kind-filter").selectOption("sweep");
    await expect(runs.rows).toHaveCount(1 + 20);
    await runs.search("Sizes 1");
    // Of the sweeps (every fourth copy), only "Sizes 12" and "Sizes 16" hold a 1.
    await expect(runs.rows).toHaveCount(2);
    // The filters and the search are kept across a reload, as the sort is.
    await app.reload();
    await runs.open();
    await expect(app.getByTestId("runs-kind-filter")).toHaveValue("sweep");
    await expect(app.getByTestId("runs-search")).toHaveValue("Sizes 1");
    await expect(runs.rows).toHaveCount(2);
    await runs.search("");
    await app.getByTestId("runs-kind-filter").selectOption("");
    await app.getByTestId("runs-endpoint-filter").selectOption("testbed");
    await expect(runs.rows).toHaveCount(SEEDED);
    await app.getByTestId("runs-endpoint-filter").selectOption("");

    // Bulk delete of three, by keyboard, then undo: they come back from the trash.
    const doomed = ["seeded-001", "seeded-002", "seeded-003"];
    for (const runId of doomed) await runs.select(runId);
    await app.getByTestId("runs-delete-selected").focus();
    await app.keyboard.press("Enter");
    await app.getByTestId("runs-delete-selected-confirm").press("Enter");
    await expect(app.getByTestId("runs-removed")).toHaveAttribute("data-count", "3");
    await expect(runs.rows).toHaveCount(SEEDED - 3);
    await app.getByTestId("runs-undo-remove").click();
    await expect(runs.rows).toHaveCount(SEEDED);
    for (const runId of doomed) await expect(runs.row(runId)).toBeVisible();

    // 22 runs of one experiment compared: 22 different lines, each (colour, dash) once.
    const compared = Array.from({ length: 88 }, (_, index) => index)
      .filter((index) => index % 4 !== 0)
      .slice(0, 22)
      .map((index) => `seeded-${String(index).padStart(3, "0")}`);
    for (const runId of compared) await runs.select(runId);
    await runs.compareSelected();
    const compare = new ComparePage(app);
    await compare.waitLoaded(22);
    await expect(compare.ladder).toHaveAttribute("data-lines", "22");
    const ladder = await downloadFrom(app, app.getByTestId("compare-ladder-chart-svg"));
    const looks = [...ladder.text.matchAll(/<polyline [^>]*>/g)].map(([line]) =>
      [/stroke="([^"]+)"/, /stroke-dasharray="([^"]+)"/].map((field) => field.exec(line)?.[1]),
    );
    expect(looks).toHaveLength(22);
    expect(new Set(looks.map((look) => look.join(" "))).size).toBe(22);
    // The legend's swatches too, and the table's beside each run's name.
    const swatches = [...ladder.text.matchAll(/<g><line [^>]*>/g)].map(([line]) =>
      [/stroke="([^"]+)"/, /stroke-dasharray="([^"]+)"/].map((field) => field.exec(line)?.[1]),
    );
    expect(new Set(swatches.map((look) => look.join(" "))).size).toBe(22);
    const tableDashes = await compare.rows
      .locator("svg.swatch-line")
      .evaluateAll((swatches) => swatches.map((swatch) => swatch.getAttribute("data-dash")));
    expect(new Set(tableDashes)).toEqual(new Set(["solid", "dash", "dot", "dashDot"]));
    const shell = new AppShell(app);
    await compare.ladder.scrollIntoViewIfNeeded();
    await keepScreenshot(app, "compare-22-runs");
    await shell.useDarkTheme();
    await keepScreenshot(app, "compare-22-runs-dark");
    await shell.setProjector(true);
    await keepScreenshot(app, "compare-22-runs-projector");
    await shell.setProjector(false);
    await shell.themeButton.click();
    await runs.open();

    await shell.useDarkTheme();
    await keepScreenshot(app, "library-80-runs-dark");
    await shell.setProjector(true);
    await keepScreenshot(app, "library-80-runs-projector");
    await shell.setProjector(false);
    await shell.setLanguage("zh-CN");
    await expect(app.getByTestId("runs-sort")).toContainText("最差测试点");
    await keepScreenshot(app, "library-80-runs-zh");
  });
});
