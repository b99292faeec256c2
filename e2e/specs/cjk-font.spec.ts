import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from "@taillab/test-support";
import { writeFile } from "node:fs/promises";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { RunsPage } from "../pages/runs-page.ts";

/** Latin fonts only: what a lab PC without CJK fonts has. */
const LATIN_FONT_DIRS = [
  "/usr/share/fonts/truetype/dejavu",
  "/usr/share/fonts/truetype/liberation",
];

function fontconfig(dirs: readonly string[], cacheDir: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
${dirs.map((dir) => `  <dir>${dir}</dir>`).join("\n")}
  <cachedir>${cacheDir}</cachedir>
</fontconfig>
`;
}

test.describe("Chinese without system CJK fonts", () => {
  test("the app's own font draws the Chinese UI on a machine that has none", async ({
    webHost,
  }) => {
    const config = test.info().outputPath("fonts.conf");
    await writeFile(config, fontconfig(LATIN_FONT_DIRS, test.info().outputPath("font-cache")));
    const browser = await chromium.launch({
      executablePath: SYSTEM_CHROMIUM,
      args: CHROMIUM_ARGS,
      env: { ...process.env, FONTCONFIG_FILE: config },
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
      // Which fonts Chromium really drew the Chinese navigation with, as its DevTools say.
      const session = await page.context().newCDPSession(page);
      await session.send("DOM.enable");
      await session.send("CSS.enable");
      const { root } = await session.send("DOM.getDocument");
      const fontsOf = async (selector: string) => {
        const { nodeId } = await session.send("DOM.querySelector", {
          nodeId: root.nodeId,
          selector,
        });
        const { fonts } = await session.send("CSS.getPlatformFontsForNode", { nodeId });
        return fonts;
      };
      const nav = await fontsOf('[data-testid="nav-experiments"]');
      expect(nav, "the CJK glyphs come from the shipped font").toEqual([
        expect.objectContaining({ isCustomFont: true, familyName: "Noto Sans SC" }),
      ]);
      // Without it, this machine has nothing for Chinese: a page of system fonts only falls back.
      const bare = await browser.newPage();
      await bare.setContent('<p id="t" style="font-family: sans-serif">延迟</p>');
      const bareSession = await bare.context().newCDPSession(bare);
      await bareSession.send("DOM.enable");
      await bareSession.send("CSS.enable");
      const bareRoot = (await bareSession.send("DOM.getDocument")).root;
      const { nodeId } = await bareSession.send("DOM.querySelector", {
        nodeId: bareRoot.nodeId,
        selector: "#t",
      });
      const { fonts } = await bareSession.send("CSS.getPlatformFontsForNode", { nodeId });
      expect(fonts.map((font) => font.familyName)).not.toContain("WenQuanYi Micro Hei");
      await keepScreenshot(page, "zh-CN-without-system-cjk-fonts");
    } finally {
      await browser.close();
    }
  });
});
