import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";

const LIVE_LAB = "Live tail lab";

test.describe("The live tail lab", () => {
  test("knobs move while it runs, the chart answers, and the session is kept with its markers", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.runFromList(LIVE_LAB);
    const live = new LiveRunPage(app);
    await live.waitForStatus("running");
    await expect(live.knobs).toBeVisible();
    await expect(live.progress).toContainText("runs until you stop it");
    await expect.poll(() => live.timelineSeconds(), { timeout: 60_000 }).toBeGreaterThan(2);

    // Stalls of half a second in a tenth of the requests: the last second's p99 is a stall.
    expect(await live.sliderToMax("stallProbability")).toBe("10 %");
    await expect(live.markers).toHaveCount(1);
    const stallsAt = Number(await live.markers.first().getAttribute("data-at-ms"));
    await expect
      .poll(async () => (await live.lastSecond()).atMs > stallsAt, { timeout: 30_000 })
      .toBe(true);
    await expect
      .poll(async () => (await live.lastSecond()).p99Ms, { timeout: 30_000 })
      .toBeGreaterThan(400);
    await keepScreenshot(app, "live-lab-stalls");

    // Hedged requests: backups go out, and their cost shows per second.
    await live.setMode("hedged");
    await expect(live.markers).toHaveCount(2);
    const hedgedAt = Number(await live.markers.nth(1).getAttribute("data-at-ms"));
    await expect
      .poll(
        async () => {
          const second = await live.lastSecond();
          return second.atMs > hedgedAt ? second.extraPercent : 0;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await live.setReplicas(3);
    await expect(live.markers).toHaveCount(3);
    await expect(live.markers.nth(2)).toContainText("replicas 3");
    await keepScreenshot(app, "live-lab-hedged");

    const shell = new AppShell(app);
    await shell.setProjector(true);
    await keepScreenshot(app, "live-lab-projector");
    await shell.setLanguage("zh-CN");
    await expect(live.knobs).toContainText("调节旋钮");
    await keepScreenshot(app, "zh-live-lab-projector");
    await shell.setLanguage("en");
    await shell.setProjector(false);

    await live.setMode("tied-server");
    await expect(live.markers).toHaveCount(4);
    await live.stop();
    await live.waitForStatus("stopped");
    await expect(live.knobs).toHaveCount(0);
    await live.openResult();

    const detail = new RunDetailPage(app);
    await detail.waitLoaded();
    await expect(detail.view).toHaveAttribute("data-status", "stopped");
    const overTime = app.getByTestId("over-time-chart");
    await expect(overTime).toHaveAttribute("data-markers", "4");
    await expect(app.getByTestId("run-markers").locator("li").nth(1)).toContainText("mode hedged");
    await expect(app.getByTestId("tail-breakdown")).toBeVisible();
    await expect(app.getByTestId("timing-table")).toBeVisible();
    await keepScreenshot(app, "live-lab-saved-run");
  });
});
