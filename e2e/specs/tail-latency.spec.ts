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
  test("the built-in lab shows the stalls at normal's p99.9 and backups answering for hedged and tied requests", async ({
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
    // 1 % of requests stall for 1 s: normal's p99.9 is a stall. How far hedged and tied requests
    // cut it is a `pnpm bench tail` figure: on a busy machine a pause of this whole process slows
    // the 16 requests in flight at once, more than the 3 worst of 3 000 that make p99.9, so
    // separate runs' p99.9 are not compared here; that backups answered is (from the export).
    const p999 = Object.fromEntries(modes.map((mode) => [mode.mode, mode.p999Ms]));
    expect(p999.normal, "normal p99.9: a 1 s stall").toBeGreaterThanOrEqual(1000);
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
    const wonByBackup = Object.fromEntries(
      json.map((run) => [
        run.summary.mode,
        run.summary.points[0]?.phases.find((phase) => phase.op === "GET")?.hedge?.wonByBackup ?? 0,
      ]),
    );
    expect(wonByBackup).toEqual({
      normal: 0,
      hedged: expect.any(Number),
      tied: expect.any(Number),
    });
    expect(wonByBackup.hedged, "hedged GETs answered by their backup").toBeGreaterThan(0);
    expect(wonByBackup.tied, "tied GETs answered by their second copy").toBeGreaterThan(0);
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
