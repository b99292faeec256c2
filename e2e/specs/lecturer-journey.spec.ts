import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { ComparePage } from "../pages/compare-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { TailGuidePage } from "../pages/tail-guide-page.ts";

/** A Latin word on a Chinese screen (p99, p99.9 and numbers are not words). */
const ENGLISH_WORD = /\b(?!p\d)[A-Za-z]{3,}\b/;

test.describe("A lecturer's journey", () => {
  test("launch → tour → run → compare → conclusion, then the conclusion in Chinese", async ({
    app,
  }) => {
    const shell = new AppShell(app);
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await shell.setProjector(true);
    const tour = new TailGuidePage(app);
    await tour.open();
    await tour.expectStep("why");
    await expect(tour.guide).toContainText("p99.9");
    await tour.goTo("run");
    await tour.runLab();

    // The class watches the three runs; the guide waits where it was.
    const live = new LiveRunPage(app);
    await expect(live.compareModesButton).toBeVisible({ timeout: 150_000 });
    await live.waitForStatus("complete");
    await shell.open("experiments");
    await tour.expectStep("run");
    await expect(tour.guide).toHaveAttribute("data-lab-runs", "3");
    await expect(app.getByTestId("experiment-builder")).toHaveCount(0);

    await tour.goTo("compare");
    await tour.compareModes();
    const compare = new ComparePage(app);
    await compare.waitLoaded(3);
    const verdicts = compare.modeComparison.getByTestId("mode-verdict");
    await expect(verdicts).toHaveCount(2);
    await expect(verdicts.first()).toContainText(/^hedged: p99\.9 [−+\d]/);
    await keepScreenshot(app, "journey-compare");
    // The comparison and the guide's place survive a reload.
    await app.reload();
    await compare.waitLoaded(3);
    await expect(verdicts).toHaveCount(2);

    await shell.open("experiments");
    await tour.expectStep("compare");
    await tour.goTo("conclusion");
    await expect(tour.conclusion).toBeVisible();
    await expect(tour.conclusion.getByTestId("mode-verdict")).toHaveCount(2);
    await expect(tour.conclusion).toContainText(
      /Your normal run: p99 [\d,.]+ ms, p99\.9 [\d,.]+ ms/,
    );
    await expect(tour.conclusion).toContainText("Conclusion:");
    await keepScreenshot(app, "journey-conclusion");

    await shell.setLanguage("zh-CN");
    await expect(tour.conclusion).toContainText("你们的普通模式运行");
    await expect(tour.conclusion).toContainText("结论");
    expect(await tour.guide.innerText()).not.toMatch(ENGLISH_WORD);
    await keepScreenshot(app, "zh-journey-conclusion");
    await tour.goTo("next");
    await app.getByTestId("tail-guide-next").click();
    await expect(tour.guide).toHaveCount(0);
  });
});
