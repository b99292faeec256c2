import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LecturerTour } from "../support/lecturer-tour.ts";

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
    const journey = new LecturerTour(app);
    const tour = journey.guide;
    await journey.openGuide();
    await expect(tour.guide).toContainText("p99.9");
    await journey.runLab();

    // The class watches the three runs; the guide waits where it was.
    await journey.watchRuns();
    await expect(tour.guide).toHaveAttribute("data-lab-runs", "3");
    await expect(app.getByTestId("experiment-builder")).toHaveCount(0);

    const compare = await journey.compareModes();
    const verdicts = compare.modeComparison.getByTestId("mode-verdict");
    await expect(verdicts).toHaveCount(2);
    await expect(verdicts.first()).toContainText(/^hedged: p99\.9 [−+\d]/);
    await keepScreenshot(app, "journey-compare");
    // The comparison and the guide's place survive a reload.
    await app.reload();
    await compare.waitLoaded(3);
    await expect(verdicts).toHaveCount(2);

    await journey.conclude();
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
