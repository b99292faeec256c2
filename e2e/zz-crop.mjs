import { chromium } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
const [file, y, h, out, w = "1440"] = process.argv.slice(2);
const html = join(dirname(file), "zz-view.html");
writeFileSync(
  html,
  `<body style="margin:0"><img src="${basename(file)}" style="display:block"></body>`,
);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--allow-file-access-from-files"],
});
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
await page.goto(pathToFileURL(html).href);
await page.waitForLoadState("load");
await page.evaluate((top) => window.scrollTo(0, top), Number(y));
await page.waitForTimeout(200);
await page.screenshot({ path: out });
await browser.close();
