import type { Page } from "@playwright/test";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";
import { unusedPort } from "../support/free-port.ts";

const ENGLISH_NAV = ["Endpoints", "Experiments", "Live run", "Results", "Compare"];
const HAN = /\p{Script=Han}/u;

/** A short run on the embedded testbed, finished, for screens that need a result. */
async function finishedRun(page: Page, name: string): Promise<string> {
  const runs = new RunsPage(page);
  await runs.open();
  return runs.runToCompletion(name, "testbed", { clients: 4, samples: 200, objectSize: "16KiB" });
}

/**
 * What may stay in Latin letters on a Chinese screen: names of products, protocols and formats,
 * units, S3 operations and codes, and the testbed's profile and mode names (identifiers a user
 * types in a spec). Anything else is a string left untranslated.
 */
const LATIN_ALLOWED = new Set([
  ...[
    "S3",
    "MinIO",
    "Ceph",
    "RGW",
    "Swift",
    "s3api",
    "AWS",
    "S3Mock",
    "moto",
    "TailLab",
    "s3bench",
  ],
  ...["Kubernetes", "Pod", "Job", "Electron", "Linux", "Chromium"],
  ...["TTFB", "CDF", "CCDF", "PNG", "SVG", "CSV", "JSON", "HTML", "HTTP", "TLS", "URL", "CA", "ID"],
  ...["http", "https", "KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "ops", "ms", "us"],
  ...["PUT", "GET", "HEAD", "DELETE", "LIST", "COPY", "ECONNREFUSED", "NoSuchBucket"],
  // The HTTP header a server names itself in.
  "Server",
  ...["Ctrl", "Shift", "Esc", "Enter", "Tab"],
  ...["fast", "steady", "stalls", "queue", "noisy-neighbour", "normal", "hedged", "tied"],
  ...["tied-server", "adaptive", "round-robin", "least-outstanding", "uniform", "zipf"],
  ...["get", "put", "head", "delete", "copy", "list", "multipart"],
]);
// A paper's title is a name: the labs cite it as written.
const TITLES = ["The Tail at Scale"];

/**
 * Words in Latin letters a person sees in the main area (text shown, the chosen option of each
 * list), leaving out numbers, what the app shows verbatim (`translate="no"`: names a user gave,
 * what a server or the machine reports), what a message quotes (a value as typed) and the
 * allowed names and units.
 */
async function latinWords(page: Page): Promise<string[]> {
  const texts = await page.locator("main").evaluate((main) => {
    const verbatim = '[translate="no"], option, script, style';
    const shown: string[] = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(verbatim) || !parent.checkVisibility()) continue;
      shown.push(node.textContent ?? "");
    }
    for (const select of main.querySelectorAll("select")) {
      if (!select.closest(verbatim) && select.checkVisibility()) {
        shown.push(select.selectedOptions[0]?.textContent ?? "");
      }
    }
    return shown;
  });
  const text = TITLES.reduce((all, title) => all.replaceAll(title, " "), texts.join("\n")).replace(
    /“[^”]*”|"[^"]*"/g,
    " ",
  );
  const words = text.match(/[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]/g) ?? [];
  return [
    ...new Set(
      words.filter(
        (word) => (word.match(/[A-Za-z]/g) ?? []).length >= 3 && !LATIN_ALLOWED.has(word),
      ),
    ),
  ];
}

/** Every table that needs a sideways scroll to be read, as "its headings: table px in place px". */
async function sidewaysScrolled(page: Page): Promise<string[]> {
  return page.locator("main table").evaluateAll((tables) =>
    tables
      .filter((table) => table.checkVisibility())
      .flatMap((table) => {
        const place = table.parentElement as HTMLElement;
        if (table.scrollWidth <= place.clientWidth + 1) return [];
        const headings = [...table.querySelectorAll("th")].map((cell) => cell.textContent);
        return [`${headings.join(" | ")}: ${table.scrollWidth} px in ${place.clientWidth} px`];
      }),
  );
}

/** How many rows the header's brand, navigation and tools take. */
async function headerRows(page: Page): Promise<number> {
  return page.locator(".app-header").evaluate((header) => {
    // Items of one row share their middle (the header centres them).
    const middles = [...header.children]
      .filter((child) => child.checkVisibility() && !child.matches(".skip-link"))
      .map((child) => {
        const box = child.getBoundingClientRect();
        return Math.round((box.top + box.bottom) / 20);
      });
    return new Set(middles).size;
  });
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
    const runId = await finishedRun(app, "中文运行");
    const shell = new AppShell(app);
    await shell.setLanguage("zh-CN");
    const leftovers: Record<string, string[]> = {};

    const endpoints = new EndpointsPage(app);
    await endpoints.open();
    await endpoints.startAdd();
    leftovers.endpoints = await latinWords(app);
    await keepScreenshot(app, "zh-endpoints-form");
    // A connection verdict, and a field error the backend names, in Chinese.
    await endpoints.fill({
      kind: "minio",
      name: "实验室服务器",
      url: `http://127.0.0.1:${await unusedPort()}`,
      accessKeyId: "minioadmin",
      secret: "minioadmin",
    });
    expect(await endpoints.testConnection()).toBe("unreachable");
    await expect(endpoints.verdict.locator(".verdict-message")).toContainText("连接被拒绝");
    leftovers.verdict = await latinWords(app);
    await keepScreenshot(app, "zh-endpoint-verdict");
    await endpoints.fill({ bucket: "Bad_Bucket" });
    await endpoints.form.getByTestId("endpoint-save").click();
    await expect(endpoints.fieldError("bucket")).toContainText("只能包含小写字母");
    leftovers.endpointErrors = await latinWords(app);

    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await expect(experiments.row("Tail latency: normal vs hedged vs tied")).toBeVisible();
    leftovers.experiments = await latinWords(app);
    await keepScreenshot(app, "zh-experiments-list");
    await experiments.newExperiment();
    await experiments.previewFigures();
    leftovers.builder = await latinWords(app);
    await keepScreenshot(app, "zh-experiment-builder");
    // Each built-in latency profile's summary, shown under the testbed's profile list.
    const profileSelect = app.getByTestId("experiment-testbed-profile");
    const profileWords: string[] = [];
    for (const profile of ["fast", "steady", "stalls", "queue", "noisy-neighbour"]) {
      await profileSelect.selectOption(profile);
      profileWords.push(...(await latinWords(app)));
    }
    leftovers.profiles = [...new Set(profileWords)];
    // The builder's field errors come from the backend's checks: said in Chinese at the boxes.
    await experiments.fill({ clients: "0", samples: "10, x" });
    await experiments.expectPreviewInvalid();
    await expect(experiments.fieldError("clients")).toHaveText("“0”：至少需要 1 个客户端");
    await expect(experiments.fieldError("samples")).toHaveText("“x”：请求数应为整数");
    leftovers.builderErrors = await latinWords(app);
    await keepScreenshot(app, "zh-experiment-builder-errors");

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

    await test.info().attach("english-words-on-chinese-screens.json", {
      body: JSON.stringify(leftovers, null, 2),
      contentType: "application/json",
    });
    expect(leftovers, "English words left on Chinese screens").toEqual({
      endpoints: [],
      verdict: [],
      endpointErrors: [],
      experiments: [],
      builder: [],
      profiles: [],
      builderErrors: [],
      library: [],
      runDetail: [],
      live: [],
    });
    expect(await shell.navTexts()).not.toEqual(ENGLISH_NAV);
  });

  test("dark mode and projector mode restyle the result screens and are remembered", async ({
    app,
  }) => {
    // Hedged: its results table has the most columns (backups and their cost).
    const runs = new RunsPage(app);
    await runs.open();
    const runId = await runs.runToCompletion("Dark and projector", "testbed", {
      clients: 4,
      samples: 200,
      objectSize: "16KiB",
      mode: "hedged",
      testbed: { replicas: 2 },
    });
    const shell = new AppShell(app);
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
    expect(await sidewaysScrolled(app), "tables wider than their place, in projector mode").toEqual(
      [],
    );
    expect(await headerRows(app), "the header on one row in projector mode").toBe(1);
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
    expect(await sidewaysScrolled(app), "tables wider than their place, in Chinese").toEqual([]);
    expect(await headerRows(app), "the header on one row in Chinese").toBe(1);
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
