import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import {
  expectSelfContainedHtml,
  expectSummaryCsv,
  parseRunJson,
} from "../support/report-files.ts";
import { ComparePage } from "../pages/compare-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";

const TAIL_LAB = "Tail latency: normal vs hedged vs tied";

test.describe("Tail latency", () => {
  test("the built-in lab shows hedged and tied requests beating normal ones at p99.9", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await expect(experiments.row(TAIL_LAB)).toBeVisible();
    await keepScreenshot(app, "experiments-list");
    await experiments.runFromList(TAIL_LAB);

    const live = new LiveRunPage(app);
    await expect(live.view).toBeVisible();
    // Three runs, one per mode; the second one's progress is the mid-run picture.
    const series = app.getByTestId("live-series");
    await expect(series).toContainText(/\b2 of 3\b/, { timeout: 90_000 });
    await live.waitForStatus("running");
    await live.waitForProgressBeyond(500);
    await live.expectPercentilesShown();
    await keepScreenshot(app, "live-run-tail-mid-run");

    await expect(live.compareModesButton).toBeVisible({ timeout: 150_000 });
    await live.waitForStatus("complete");
    await keepScreenshot(app, "live-run-tail-complete");

    await live.compareModes();
    const compare = new ComparePage(app);
    await compare.waitLoaded(3);
    const modes = await compare.modeFigures();
    expect(modes.map((mode) => mode.mode).sort()).toEqual(["hedged", "normal", "tied"]);
    const p999 = Object.fromEntries(modes.map((mode) => [mode.mode, mode.p999Ms]));
    expect(p999.hedged, "hedged p99.9 against normal's").toBeLessThan(p999.normal!);
    expect(p999.tied, "tied p99.9 against normal's").toBeLessThan(p999.normal!);
    // Backups cost something, and normal requests send none.
    const extra = Object.fromEntries(modes.map((mode) => [mode.mode, mode.extraPercent]));
    expect(extra.normal).toBe(0);
    expect(extra.hedged).toBeGreaterThan(0);
    expect(extra.tied).toBeGreaterThan(0);
    await expect(compare.ladder.locator("canvas")).toBeVisible();
    await expect(app.getByTestId("mode-tail-chart").locator("canvas")).toBeVisible();
    await keepScreenshot(app, "compare-modes");

    // The comparison leaves as files a report can quote.
    const runIds = await compare.comparedRunIds();
    const csv = expectSummaryCsv(await compare.export("csv"), 3 * 3);
    const modeColumn = csv[0]!.indexOf("Mode");
    expect(new Set(csv.slice(1).map((row) => row[modeColumn]))).toEqual(
      new Set(["normal", "hedged", "tied"]),
    );
    expectSelfContainedHtml(await compare.export("html"), runIds);
    const json = parseRunJson(await compare.export("json"));
    expect(json.map((run) => run.meta.id)).toEqual(runIds);
  });
});

test.describe("From launch to the comparison", () => {
  test("normal vs hedged vs tied is two clicks from launch", async ({ app }) => {
    // Every click the person makes, counted by the page itself from the moment it opened.
    await app.evaluate(() => {
      const counted = window as unknown as { taillabClicks: number };
      counted.taillabClicks = 0;
      document.addEventListener(
        "click",
        (event) => {
          if (event.isTrusted) counted.taillabClicks += 1;
        },
        true,
      );
    });
    const launched = Date.now();
    const experiments = new ExperimentsPage(app);
    await expect(experiments.row(TAIL_LAB)).toBeVisible();
    await experiments.runFromList(TAIL_LAB);
    const live = new LiveRunPage(app);
    await expect(live.compareModesButton).toBeVisible({ timeout: 150_000 });
    await live.compareModes();
    const compare = new ComparePage(app);
    await compare.waitLoaded(3);
    const modes = await compare.modeFigures();
    expect(modes.map((mode) => mode.mode)).toEqual(["normal", "hedged", "tied"]);
    const clicks = await app.evaluate(
      () => (window as unknown as { taillabClicks: number }).taillabClicks,
    );
    expect(clicks, "clicks from launch to the comparison").toBeLessThanOrEqual(2);
    // How long it took is a figure for `pnpm bench ui`, not a bound here.
    test.info().annotations.push({
      type: "launch-to-comparison",
      description: `${Math.round((Date.now() - launched) / 1000)} s, ${clicks} clicks`,
    });
  });
});

test.describe("Tied requests, cancelled by the client or by the servers", () => {
  test("the built-in lab puts both side by side, with the work the replicas did", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.runFromList("Tied requests: client vs server cancellation");
    const live = new LiveRunPage(app);
    await expect(live.compareModesButton).toBeVisible({ timeout: 180_000 });
    await live.compareModes();
    const compare = new ComparePage(app);
    await compare.waitLoaded(3);
    const modes = await compare.modeFigures();
    expect(modes.map((mode) => mode.mode)).toEqual(["normal", "tied", "tied-server"]);
    const served = Object.fromEntries(modes.map((mode) => [mode.mode, mode.served]));
    // Both tied modes send every request twice, but only the servers' cancellation keeps the
    // twin from being served.
    expect(served["tied-server"]).toBeLessThan(served.tied!);
    await expect(compare.modeComparison).toContainText("tied (server cancel)");
    await compare.modeComparison.scrollIntoViewIfNeeded();
    await keepScreenshot(app, "compare-tied-client-vs-server");
  });
});
