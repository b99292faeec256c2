import type { Page } from "@playwright/test";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { contrastRatio, over, parseComputedColor } from "../support/contrast.ts";
import { AppShell } from "../pages/app-shell.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";

/** WCAG AA for normal text; badges are small and bold, so no large-text allowance. */
const TEXT_CONTRAST = 4.5;
/** WCAG 2.2's minimum for a focus indicator against what surrounds it. */
const FOCUS_CONTRAST = 3;
const TAIL_LAB = "Tail latency: normal vs hedged vs tied";

interface ComputedPair {
  text: string;
  color: string;
  /** Backgrounds from the element up to the page, as computed, the element's own first. */
  backgrounds: string[];
}

/** The text colour and backgrounds of every visible badge and coloured banner, as computed. */
async function badgeColours(page: Page): Promise<ComputedPair[]> {
  return page.locator("body").evaluate((body) =>
    [...body.querySelectorAll(".badge, .kind-badge, .banner.success, .banner.warning")]
      .filter((element) => element.checkVisibility() && element.textContent?.trim())
      .map((element) => {
        const backgrounds: string[] = [];
        for (let at: Element | null = element; at; at = at.parentElement) {
          backgrounds.push(getComputedStyle(at).backgroundColor);
        }
        return {
          text: element.textContent?.trim() ?? "",
          color: getComputedStyle(element).color,
          backgrounds,
        };
      }),
  );
}

/** What a pair's text is seen against: its backgrounds painted bottom-up. */
function shownOn(pair: ComputedPair) {
  return [...pair.backgrounds]
    .reverse()
    .map(parseComputedColor)
    .reduce((below, layer) => over(layer, below), parseComputedColor("rgb(255, 255, 255)"));
}

/** Every badge below `TEXT_CONTRAST`, as "text: ratio". */
async function lowContrastBadges(page: Page): Promise<string[]> {
  const pairs = await badgeColours(page);
  expect(pairs.length, "badges on screen").toBeGreaterThan(0);
  return pairs.flatMap((pair) => {
    const ratio = contrastRatio(over(parseComputedColor(pair.color), shownOn(pair)), shownOn(pair));
    return ratio >= TEXT_CONTRAST ? [] : [`${pair.text}: ${ratio.toFixed(2)}:1`];
  });
}

test.describe("Accessibility", () => {
  test("badges keep 4.5:1 in light, dark and projector mode", async ({ app }) => {
    // The maths, on the colours the issue measured: orange on the badge grey was 3.07:1.
    expect(
      contrastRatio(
        parseComputedColor("rgb(224, 102, 43)"),
        parseComputedColor("rgb(240, 242, 245)"),
      ),
    ).toBeCloseTo(3.07, 2);
    const shell = new AppShell(app);
    const experiments = new ExperimentsPage(app);
    const endpoints = new EndpointsPage(app);
    const found: Record<string, string[]> = {};
    const themes: [string, () => Promise<void>][] = [
      ["light", async () => {}],
      ["dark", () => shell.useDarkTheme()],
      ["dark projector", () => shell.setProjector(true)],
      ["light projector", () => shell.themeButton.click()],
    ];
    for (const [theme, apply] of themes) {
      await apply();
      await experiments.open();
      await expect(experiments.row(TAIL_LAB)).toBeVisible();
      found[`${theme}: experiments`] = await lowContrastBadges(app);
      await keepScreenshot(app, `badges-${theme.replace(" ", "-")}`);
      await endpoints.open();
      found[`${theme}: endpoints`] = await lowContrastBadges(app);
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((key) => [key, []])));
  });

  test("a skip link, an opaque focus ring, and the lab's Run button a few Tabs away", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    // Opened afresh (the address keeps the screen), the keyboard starts at the top of the page.
    await app.reload();
    await expect(experiments.row(TAIL_LAB)).toBeVisible();
    await app.keyboard.press("Tab");
    const skip = app.getByTestId("skip-link");
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await app.keyboard.press("Enter");
    const run = experiments.row(TAIL_LAB).getByTestId("experiment-row-run");
    let tabs = 0;
    while (!(await run.evaluate((button) => button === document.activeElement)) && tabs < 20) {
      await app.keyboard.press("Tab");
      tabs += 1;
    }
    expect(tabs, "Tabs from the skip link to the lab's Run button").toBeLessThanOrEqual(5);
    const ring = await run.evaluate((button) => {
      const style = getComputedStyle(button);
      return {
        style: style.outlineStyle,
        color: style.outlineColor,
        width: parseFloat(style.outlineWidth),
        page: getComputedStyle(document.querySelector("main") as Element).backgroundColor,
      };
    });
    expect(ring.style).toBe("solid");
    expect(ring.width).toBeGreaterThanOrEqual(2);
    const ringColor = parseComputedColor(ring.color);
    expect(ringColor.a, "the focus ring is opaque").toBe(1);
    expect(
      contrastRatio(ringColor, shownOn({ text: "", color: ring.color, backgrounds: [ring.page] })),
    ).toBeGreaterThanOrEqual(FOCUS_CONTRAST);
    await keepScreenshot(app, "focus-on-lab-run");
  });
});
