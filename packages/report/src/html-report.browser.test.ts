import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderComparisonReport, renderRunReport } from "./html-report.ts";
import { REPORT_LANGUAGES } from "./report-messages.ts";
import { syntheticRun } from "./test-support/synthetic-run.ts";
import {
  CHROMIUM_ARGS,
  fontsDrawing,
  latinOnlyFontconfig,
  SYSTEM_CHROMIUM,
} from "@taillab/test-support";

/**
 * The reports in a real Chromium with the network shut: every chart must be drawn, nothing may
 * be fetched, no error may be logged, and the legend must toggle lines. Screenshots land in
 * test-results/ for a person to look at.
 */

const RESULTS_DIR = fileURLToPath(new URL("../../../test-results/", import.meta.url));

let browser: Browser;
let scratch: string;

beforeAll(async () => {
  if (!existsSync(SYSTEM_CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${SYSTEM_CHROMIUM}; the report browser test needs it. ` +
        "Install it with `apt-get update && apt-get install -y chromium` (Debian/Ubuntu, as root), " +
        "then run the tests again. (Do not use `playwright install`: the test uses the system Chromium.)",
    );
  }
  browser = await chromium.launch({
    executablePath: SYSTEM_CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  scratch = await mkdtemp(join(tmpdir(), "taillab-report-"));
  await mkdir(RESULTS_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface OpenedReport {
  page: Page;
  /** Requests other than the report file itself: each was blocked, and there must be none. */
  blocked: string[];
  problems: string[];
  close(): Promise<void>;
}

async function openReport(
  fileName: string,
  text: string,
  on: Browser = browser,
): Promise<OpenedReport> {
  const path = join(scratch, fileName);
  await writeFile(path, text, "utf8");
  const fileUrl = pathToFileURL(path).href;
  const context = await on.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const blocked: string[] = [];
  const problems: string[] = [];
  await page.route("**/*", async (route) => {
    const url = route.request().url();
    if (url === fileUrl) {
      await route.continue();
      return;
    }
    blocked.push(url);
    await route.abort("blockedbyclient");
  });
  page.on("request", (request) => {
    if (request.url() !== fileUrl && !blocked.includes(request.url())) blocked.push(request.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.goto(fileUrl, { waitUntil: "load" });
  return { page, blocked, problems, close: () => context.close() };
}

interface ChartCheck {
  id: string;
  drawn: number;
  width: number;
  height: number;
}

/** Every chart with the number of its drawn marks (paths with data, dots) and its size. */
async function checkCharts(page: Page): Promise<ChartCheck[]> {
  return page.$$eval("svg.chart", (charts) =>
    charts.map((chart) => {
      const marks = [...chart.querySelectorAll("[data-series] path, [data-series] circle")].filter(
        (mark) => {
          const box = (mark as SVGGraphicsElement).getBBox();
          const data = mark.getAttribute("d");
          return (
            (mark.tagName === "circle" || (data !== null && data.length > 2)) &&
            box.width + box.height > 0
          );
        },
      );
      const rect = chart.getBoundingClientRect();
      return { id: chart.id, drawn: marks.length, width: rect.width, height: rect.height };
    }),
  );
}

async function expectLegendToggles(page: Page): Promise<void> {
  const figure = page.locator("figure:has(.legend)").first();
  const button = figure.locator(".legend-entry").first();
  const seriesId = await button.getAttribute("data-series");
  expect(seriesId).toMatch(/-s0$/);
  const line = figure.locator(`svg [data-series="${seriesId}"]`).first();
  await expect.poll(() => line.isVisible()).toBe(true);
  await button.click();
  expect(await button.getAttribute("aria-pressed")).toBe("false");
  await expect.poll(() => line.isVisible()).toBe(false);
  // The other lines of the chart stay.
  const other = figure.locator('svg [data-series$="-s1"]').first();
  expect(await other.isVisible()).toBe(true);
  await button.click();
  expect(await button.getAttribute("aria-pressed")).toBe("true");
  await expect.poll(() => line.isVisible()).toBe(true);
}

describe("the offline harness", () => {
  it("catches a page that reaches for the network", async () => {
    const probe = await openReport(
      "probe.html",
      '<!DOCTYPE html><html><head><link rel="stylesheet" href="https://cdn.example.invalid/x.css"></head><body><img src="http://example.invalid/x.png"></body></html>',
    );
    try {
      expect(probe.blocked).toEqual(
        expect.arrayContaining([
          "https://cdn.example.invalid/x.css",
          "http://example.invalid/x.png",
        ]),
      );
    } finally {
      await probe.close();
    }
  });
});

const run = syntheticRun({
  name: "Lab 3: hedged GETs against a stalling server",
  notes:
    "Lognormal service times with a few one-second stalls per phase.\nTestbed profile: slow-disk.",
  mode: "hedged",
  spec: { clients: [4, 16], objectSize: ["16KiB", "256KiB"], samples: [20_000] },
  stallsPerPhase: 6,
});

describe.each(REPORT_LANGUAGES)("run report in Chromium (%s)", (language) => {
  let opened: OpenedReport;

  beforeAll(async () => {
    opened = await openReport(`report-${language}.html`, renderRunReport(run, { language }));
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("loads with no request beyond the file, and no error or CSP violation", async () => {
    expect(opened.blocked).toEqual([]);
    expect(opened.problems).toEqual([]);
    // The stylesheet and the script passed the policy: styles apply, the legend works (below).
    const fontSize = await opened.page.evaluate(
      () => getComputedStyle(document.documentElement).fontSize,
    );
    expect(fontSize).toBe("18px");
  });

  it("draws every chart", async () => {
    const charts = await checkCharts(opened.page);
    // 4 points × 2 phases × 7 charts (data moved over time the latest), a ladder, and 2 axes × 4
    // sweep charts.
    expect(charts).toHaveLength(4 * 2 * 7 + 1 + 2 * 4);
    for (const chart of charts) {
      expect(chart.drawn, chart.id).toBeGreaterThan(0);
      expect(chart.width, chart.id).toBeGreaterThan(600);
      expect(chart.height, chart.id).toBeGreaterThan(200);
    }
  });

  it("hides and shows a line when its legend entry is clicked", async () => {
    await expectLegendToggles(opened.page);
    expect(opened.problems).toEqual([]);
  });

  it("fits its tables in a 1 440 px window, none scrolled sideways", async () => {
    await opened.page.setViewportSize({ width: 1440, height: 900 });
    const overflowing = await opened.page.$$eval(".table-wrap", (wraps) =>
      wraps
        .filter((wrap) => wrap.scrollWidth > wrap.clientWidth)
        .map((wrap) => {
          const caption = wrap.previousElementSibling?.textContent ?? "";
          return `${caption.slice(0, 40)}: ${wrap.scrollWidth} px in ${wrap.clientWidth} px`;
        }),
    );
    await opened.page.setViewportSize({ width: 1280, height: 900 });
    expect(overflowing).toEqual([]);
  });

  it("takes a full-page screenshot", async () => {
    const path = join(RESULTS_DIR, `report-${language}.png`);
    await opened.page.screenshot({ path, fullPage: true });
    expect(existsSync(path)).toBe(true);
  });
});

describe("comparison report in Chromium", () => {
  let opened: OpenedReport;

  beforeAll(async () => {
    const baseline = syntheticRun({
      name: "normal",
      spec: { samples: [20_000] },
      stallsPerPhase: 8,
    });
    baseline.summary.runId = "run-normal";
    const hedged = syntheticRun({
      name: "hedged p95",
      mode: "hedged",
      spec: { samples: [20_000] },
      stallsPerPhase: 0,
      seed: 9,
    });
    hedged.summary.runId = "run-hedged";
    opened = await openReport(
      "comparison-en.html",
      renderComparisonReport([baseline, hedged], { baselineIndex: 0, language: "en" }),
    );
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("loads offline, draws its ladders, CDFs and mode charts, and toggles lines", async () => {
    expect(opened.blocked).toEqual([]);
    const charts = await checkCharts(opened.page);
    // Per operation (PUT, GET): a ladder, a CDF, the tail by mode and the cost of backups.
    expect(charts).toHaveLength(2 * 4);
    for (const chart of charts) expect(chart.drawn, chart.id).toBeGreaterThan(0);
    await expectLegendToggles(opened.page);
    expect(opened.problems).toEqual([]);
    await opened.page.screenshot({ path: join(RESULTS_DIR, "comparison-en.png"), fullPage: true });
  });
});

describe("a Chinese report on a machine without CJK fonts", () => {
  let latinOnly: Browser;
  let opened: OpenedReport;

  beforeAll(async () => {
    const fonts = join(scratch, "fonts");
    await mkdir(fonts);
    latinOnly = await chromium.launch({
      executablePath: SYSTEM_CHROMIUM,
      args: CHROMIUM_ARGS,
      env: { ...process.env, FONTCONFIG_FILE: await latinOnlyFontconfig(fonts) },
    });
    const woff2 = async (weight: number) =>
      (
        await readFile(
          new URL(`../../../assets/fonts/taillab-cjk-${weight}.woff2`, import.meta.url),
        )
      ).toString("base64");
    const cjkFont = { regular: await woff2(400), bold: await woff2(700) };
    opened = await openReport(
      "report-zh-CN-latin-only.html",
      renderRunReport(run, { language: "zh-CN", cjkFont }),
      latinOnly,
    );
  });
  afterAll(async () => {
    await opened?.close();
    await latinOnly?.close();
  });

  it("draws its Chinese with the font it carries, fetching nothing", async () => {
    await opened.page.evaluate(() => document.fonts.ready);
    expect(opened.blocked).toEqual([]);
    expect(opened.problems).toEqual([]);
    for (const selector of ["h2", "thead th", "nav.toc li a", "table.kv th"]) {
      expect(await fontsDrawing(opened.page, selector), selector).toContainEqual(
        expect.objectContaining({ isCustomFont: true, familyName: "Noto Sans SC" }),
      );
    }
    await opened.page.screenshot({
      path: join(RESULTS_DIR, "report-zh-CN-latin-only.png"),
      fullPage: true,
    });
  });
});
