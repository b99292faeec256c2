import type { Page } from "@playwright/test";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

const ENGLISH_NAV = ["Endpoints", "Experiments", "Live run", "Results", "Compare"];
const HAN = /\p{Script=Han}/u;

/** A short run on the embedded testbed, finished, for screens that need a result. */
async function finishedRun(page: Page, name: string): Promise<string> {
  const runs = new RunsPage(page);
  await runs.open();
  return runs.runToCompletion(name, "testbed", { clients: 4, samples: 200, objectSize: "16KiB" });
}

/**
 * Words of the main area that look English (three Latin letters or more), leaving out units,
 * operations, numbers and what the user named: candidates for strings left untranslated.
 */
async function latinWords(page: Page): Promise<string[]> {
  const text = await page.locator("main").innerText();
  const allowed =
    /^(PUT|GET|DELETE|HEAD|LIST|KiB|MiB|GiB|ops|http|https|TailLab|testbed|S3|MinIO|CSV|JSON|HTML|URL|ID|steady|fast|stalls|Linux|Intel|Xeon|Processor|Ctrl|Esc|Enter|KB|MB|GB|Embedded)$/i;
  const words = text.match(/[A-Za-z][A-Za-z-]{2,}/g) ?? [];
  return [...new Set(words.filter((word) => !allowed.test(word)))];
}

test.describe("Settings", () => {
  test("switching to Chinese changes the navigation, survives a reload, and switches back @headed", async ({
    app,
  }) => {
    const shell = new AppShell(app);
    await expect(shell.nav("experiments")).toBeVisible();
    expect(await shell.navTexts()).toEqual(ENGLISH_NAV);

    await shell.setLanguage("zh-CN");
    await expect(shell.nav("experiments")).toHaveText(HAN);
    const chinese = await shell.navTexts();
    for (const label of chinese) expect(label).toMatch(HAN);
    await expect(app.locator("html")).toHaveAttribute("lang", "zh-CN");

    await app.reload();
    await expect(shell.languageSelect).toHaveValue("zh-CN");
    expect(await shell.navTexts()).toEqual(chinese);

    await shell.setLanguage("en");
    await expect(shell.nav("experiments")).toHaveText("Experiments");
    expect(await shell.navTexts()).toEqual(ENGLISH_NAV);
    await app.reload();
    await expect(shell.languageSelect).toHaveValue("en");
    expect(await shell.navTexts()).toEqual(ENGLISH_NAV);
  });

  test("the Chinese UI across the screens", async ({ app }) => {
    const runId = await finishedRun(app, "中文 run");
    const shell = new AppShell(app);
    await shell.setLanguage("zh-CN");
    const leftovers: Record<string, string[]> = {};

    const endpoints = new EndpointsPage(app);
    await endpoints.open();
    await endpoints.startAdd();
    leftovers.endpoints = await latinWords(app);
    await keepScreenshot(app, "zh-endpoints-form");

    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await expect(experiments.row("Tail latency: normal vs hedged vs tied")).toBeVisible();
    leftovers.experiments = await latinWords(app);
    await keepScreenshot(app, "zh-experiments-list");
    await experiments.newExperiment();
    await experiments.previewFigures();
    leftovers.builder = await latinWords(app);
    await keepScreenshot(app, "zh-experiment-builder");

    const runs = new RunsPage(app);
    await runs.open();
    leftovers.library = await latinWords(app);
    await runs.openRun(runId);
    const detail = new RunDetailPage(app);
    await detail.waitLoaded(runId);
    await detail.expectChartDrawn("cdf-chart");
    leftovers.runDetail = await latinWords(app);
    await keepScreenshot(app, "zh-run-detail");

    const live = new LiveRunPage(app);
    await live.open();
    leftovers.live = await latinWords(app);
    await keepScreenshot(app, "zh-live-run");

    // Not a failure by itself: English left on a Chinese screen, listed for a person to judge.
    await test.info().attach("english-words-on-chinese-screens.json", {
      body: JSON.stringify(leftovers, null, 2),
      contentType: "application/json",
    });
    console.log(`English words on Chinese screens: ${JSON.stringify(leftovers)}`);
    expect(await shell.navTexts()).not.toEqual(ENGLISH_NAV);
  });

  test("dark mode and projector mode restyle the result screens and are remembered", async ({
    app,
  }) => {
    const runId = await finishedRun(app, "Dark and projector");
    const shell = new AppShell(app);
    const runs = new RunsPage(app);
    await runs.openRun(runId);
    const detail = new RunDetailPage(app);
    await detail.waitLoaded(runId);

    await shell.useDarkTheme();
    await expect(app.locator("html")).toHaveAttribute("data-theme", "dark");
    const background = await app
      .locator("body")
      .evaluate((body) => getComputedStyle(body).backgroundColor);
    expect(background, "a dark page background").toMatch(/^rgb\(\d{1,2}, \d{1,2}, \d{1,2}\)$/);
    await runs.open();
    await keepScreenshot(app, "dark-results-library");
    await runs.openRun(runId);
    await detail.waitLoaded(runId);
    await detail.expectChartDrawn("timeline-chart");
    await keepScreenshot(app, "dark-run-detail");

    await runs.open();
    await shell.setProjector(true);
    await expect(app.locator("html")).toHaveAttribute("data-projector", "true");
    await runs.openRun(runId);
    await detail.waitLoaded(runId);
    await detail.expectChartDrawn("timeline-chart");
    await keepScreenshot(app, "projector-dark-run-detail");

    await shell.themeButton.click();
    await expect(app.locator("html")).toHaveAttribute("data-theme", "light");
    // Chart labels read from the back row: 20 px at least; the page keeps its width.
    const chartLabels = await app.evaluate(() =>
      parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--chart-label-size")),
    );
    expect(chartLabels).toBeGreaterThanOrEqual(20);
    await keepScreenshot(app, "projector-run-detail");
    await shell.setLanguage("zh-CN");
    // No Chinese table heading wraps into one character per line. Its text is measured, not its
    // cell: a heading spanning two header rows is taller than its text.
    const headings = await app.locator("th").evaluateAll((cells) =>
      cells
        .filter((cell) => /\p{Script=Han}{2}/u.test(cell.textContent ?? ""))
        .filter((cell) => {
          const text = document.createRange();
          text.selectNodeContents(cell);
          const height = text.getBoundingClientRect().height;
          return height > 3 * parseFloat(getComputedStyle(cell).fontSize);
        })
        .map((cell) => cell.textContent),
    );
    expect(headings, "headings broken into a column of characters").toEqual([]);
    await keepScreenshot(app, "projector-run-detail-zh");
    await shell.setLanguage("en");
    await new LiveRunPage(app).open();
    await keepScreenshot(app, "projector-live-run");

    await app.reload();
    await expect(app.locator("html")).toHaveAttribute("data-projector", "true");
    await expect(app.locator("html")).toHaveAttribute("data-theme", "light");
  });

  test("charts on screen follow a theme switch", async ({ app }) => {
    const runId = await finishedRun(app, "Theme switch");
    const shell = new AppShell(app);
    const runs = new RunsPage(app);
    const detail = new RunDetailPage(app);
    await runs.openRun(runId);
    await detail.waitLoaded(runId);
    const light = await detail.chartInkBrightness("histogram-chart");

    // The charts on screen when the theme changes, against the same charts drawn afresh.
    await shell.useDarkTheme();
    await expect(app.locator("html")).toHaveAttribute("data-theme", "dark");
    const switched = await detail.chartInkBrightness("histogram-chart");
    await keepScreenshot(app, "dark-run-detail-switched-on-screen");
    await runs.open();
    await runs.openRun(runId);
    await detail.waitLoaded(runId);
    const fresh = await detail.chartInkBrightness("histogram-chart");

    expect(Math.abs(fresh - light), "the two themes draw charts differently").toBeGreaterThan(30);
    expect(
      Math.abs(switched - fresh),
      `ink brightness after the switch (${switched.toFixed(0)}) against a fresh dark chart (${fresh.toFixed(0)})`,
    ).toBeLessThan(Math.abs(fresh - light) / 3);
  });
});
