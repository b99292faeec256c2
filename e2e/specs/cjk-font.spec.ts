import { chromium } from "@playwright/test";
import {
  CHROMIUM_ARGS,
  cjkTextNotDrawnBy,
  type CjkFontMiss,
  fontsDrawing,
  latinOnlyFontconfig,
  SYSTEM_CHROMIUM,
} from "@taillab/test-support";
import type { Page } from "@playwright/test";
import { mkdir } from "node:fs/promises";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { ComparePage } from "../pages/compare-page.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

/** The family name the shipped font (Noto Sans SC, cut down) reports to Chromium. */
const SHIPPED_CJK_FONT = "Noto Sans SC";

/** The load state of the app's CJK font faces (regular and bold), as the page's FontFaceSet has it. */
async function cjkFaceStatuses(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.fonts]
      .filter((face) => face.family.replaceAll('"', "") === "TailLab CJK")
      .map((face) => `${face.weight}: ${face.status}`),
  );
}

/** Both faces are loaded as the app starts, whatever its language: a switch never waits for one. */
async function expectCjkFacesLoaded(page: Page): Promise<void> {
  await expect
    .poll(() => cjkFaceStatuses(page), { message: "the CJK faces loaded at start" })
    .toEqual(["100 500: loaded", "600 900: loaded"]);
}

/**
 * Opens every screen in turn and lists, per screen, the elements whose Chinese some other font
 * (or no font: an empty box) drew. Bold titles, the active navigation item, badges and the labs'
 * names are among the elements looked at.
 */
async function cjkMissesOnEveryScreen(
  page: Page,
  runIds: [string, string],
): Promise<Record<string, CjkFontMiss[]>> {
  const misses: Record<string, CjkFontMiss[]> = {};
  const look = async (screen: string): Promise<void> => {
    await expectCjkFacesLoaded(page);
    const { checked, misses: found } = await cjkTextNotDrawnBy(page, SHIPPED_CJK_FONT);
    expect(checked, `${screen}: Chinese elements laid out`).toBeGreaterThan(3);
    if (found.length > 0) misses[screen] = found;
  };
  await new EndpointsPage(page).open();
  await look("endpoints");
  const experiments = new ExperimentsPage(page);
  await experiments.open();
  // The builder stays open across a reload (its draft is kept): back to the list first.
  if (await experiments.builder.isVisible()) await page.getByTestId("experiment-back").click();
  await expect(experiments.list).toBeVisible();
  await look("experiments");
  await experiments.newExperiment();
  await look("builder");
  const runs = new RunsPage(page);
  await runs.open();
  await look("library");
  await runs.openRun(runIds[0]);
  await new RunDetailPage(page).waitLoaded(runIds[0]);
  await look("run detail");
  await runs.open();
  for (const runId of runIds) await runs.select(runId);
  await runs.compareSelected();
  await new ComparePage(page).waitLoaded(2);
  await look("compare");
  await new LiveRunPage(page).open();
  await look("live run");
  return misses;
}

/**
 * Two short runs in English, then Chinese: every screen looked at after switching the language,
 * and again after a reload.
 */
async function cjkMissesAfterSwitchAndReload(
  page: Page,
): Promise<Record<string, Record<string, CjkFontMiss[]>>> {
  const runs = new RunsPage(page);
  await runs.open();
  const small = { clients: 2, samples: 40, objectSize: "4KiB" };
  const runIds: [string, string] = [
    await runs.runToCompletion("font check", "testbed", small),
    await runs.runToCompletion("once more", "testbed", small),
  ];
  await expectCjkFacesLoaded(page);
  await new AppShell(page).setLanguage("zh-CN");
  const afterSwitch = await cjkMissesOnEveryScreen(page, runIds);
  await page.reload();
  const afterReload = await cjkMissesOnEveryScreen(page, runIds);
  return { afterSwitch, afterReload };
}

const DRAWN_BY_SHIPPED_FONT = { afterSwitch: {}, afterReload: {} };

test.describe("Chinese without system CJK fonts", () => {
  test("the app's own font draws the Chinese UI on a machine that has none", async ({
    webHost,
  }) => {
    const folder = test.info().outputPath("fonts");
    await mkdir(folder, { recursive: true });
    const browser = await chromium.launch({
      executablePath: SYSTEM_CHROMIUM,
      args: CHROMIUM_ARGS,
      env: { ...process.env, FONTCONFIG_FILE: await latinOnlyFontconfig(folder) },
    });
    try {
      // Without the app's font, this machine has nothing for Chinese: system fonts only fall back.
      const bare = await browser.newPage();
      await bare.setContent('<p id="t" style="font-family: sans-serif">延迟</p>');
      const fonts = await fontsDrawing(bare, "#t");
      expect(fonts.map((font) => font.familyName)).not.toContain("WenQuanYi Micro Hei");

      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(webHost.url);
      expect(await cjkMissesAfterSwitchAndReload(page), "Chinese drawn by another font").toEqual(
        DRAWN_BY_SHIPPED_FONT,
      );
      await keepScreenshot(page, "zh-CN-without-system-cjk-fonts");
    } finally {
      await browser.close();
    }
  });
});

test.describe("Chinese with the machine's own fonts", () => {
  test("the app's font draws every Chinese element, after a language switch and after a reload", async ({
    app,
  }) => {
    // The machine's own fontconfig: Debian maps Arial to Liberation Sans, and a CJK system font
    // may be installed; neither may draw the app's Chinese.
    const bare = await app.context().newPage();
    await bare.setContent('<p style="font-family: Arial, sans-serif">延迟</p>');
    expect(
      (await cjkTextNotDrawnBy(bare, SHIPPED_CJK_FONT)).misses,
      "the check sees a miss",
    ).toEqual([expect.objectContaining({ text: "延迟" })]);
    await bare.close();
    expect(await cjkMissesAfterSwitchAndReload(app), "Chinese drawn by another font").toEqual(
      DRAWN_BY_SHIPPED_FONT,
    );
    await keepScreenshot(app, "zh-CN-machine-fonts");
  });
});
