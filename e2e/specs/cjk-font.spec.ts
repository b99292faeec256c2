import { chromium } from "@playwright/test";
import {
  CHROMIUM_ARGS,
  fontsDrawing,
  latinOnlyFontconfig,
  SYSTEM_CHROMIUM,
} from "@taillab/test-support";
import { mkdir } from "node:fs/promises";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { RunsPage } from "../pages/runs-page.ts";

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
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(webHost.url);
      const runs = new RunsPage(page);
      await runs.open();
      await runs.runToCompletion("中文 run", "testbed", {
        clients: 2,
        samples: 60,
        objectSize: "4KiB",
      });
      const shell = new AppShell(page);
      await shell.setLanguage("zh-CN");
      await shell.open("runs");
      await page.evaluate(() => document.fonts.ready);
      expect(
        await fontsDrawing(page, '[data-testid="nav-experiments"]'),
        "the CJK glyphs come from the shipped font",
      ).toEqual([expect.objectContaining({ isCustomFont: true, familyName: "Noto Sans SC" })]);
      // Without it, this machine has nothing for Chinese: a page of system fonts only falls back.
      const bare = await browser.newPage();
      await bare.setContent('<p id="t" style="font-family: sans-serif">延迟</p>');
      const fonts = await fontsDrawing(bare, "#t");
      expect(fonts.map((font) => font.familyName)).not.toContain("WenQuanYi Micro Hei");
      await keepScreenshot(page, "zh-CN-without-system-cjk-fonts");
    } finally {
      await browser.close();
    }
  });
});
