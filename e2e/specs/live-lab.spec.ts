import type { Page } from "@playwright/test";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";

const LIVE_LAB = "Live tail lab";

/** A knob's milliseconds as the screen shows them: `250 ms`. */
function msOf(text: string): number {
  const match = /^([\d.]+) ms$/.exec(text);
  if (!match) throw new Error(`not a knob's milliseconds: "${text}"`);
  return Number(match[1]);
}

/**
 * Scrolled to the lab's end, its knobs, its percentiles now and its chart are all on the 1366×768
 * screen, below the app's header.
 */
async function fitsProjectorScreen(app: Page, live: LiveRunPage): Promise<void> {
  await app.getByTestId("live-lab").evaluate((element) => element.scrollIntoView({ block: "end" }));
  const headerBottom = await app
    .locator(".app-header")
    .evaluate((element) => element.getBoundingClientRect().bottom);
  for (const part of [
    live.knobs,
    app.getByTestId("live-percentiles"),
    app.getByTestId("live-timeline").locator("canvas"),
  ]) {
    const box = await part.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.y ?? 0).toBeGreaterThanOrEqual(headerBottom - 1);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(768);
  }
}

/** The lab started on a 1366×768 screen in projector mode, its chart past its first second. */
async function labOnProjector(app: Page): Promise<{ shell: AppShell; live: LiveRunPage }> {
  await app.setViewportSize({ width: 1366, height: 768 });
  const shell = new AppShell(app);
  const experiments = new ExperimentsPage(app);
  await experiments.open();
  await shell.setProjector(true);
  await experiments.runFromList(LIVE_LAB);
  const live = new LiveRunPage(app);
  await live.waitForStatus("running");
  await expect.poll(() => live.timelineSeconds(), { timeout: 60_000 }).toBeGreaterThan(1);
  return { shell, live };
}

test.describe("The live tail lab", () => {
  test("fits its knobs, its percentiles now and its chart on one 1366×768 projector screen", async ({
    app,
  }) => {
    const { live } = await labOnProjector(app);
    // An open-ended run: the nav says how long it has run, not "0 %".
    await expect(app.getByTestId("nav-live-running")).toHaveAttribute("data-endless", "true");
    await expect(app.getByTestId("nav-live-running")).toHaveText(/^\d+ s$/);
    await expect(app.getByTestId("live-percentiles")).toHaveAttribute("data-window", "recent");
    // The elapsed counter, the nav and the chart's time axis keep one clock, the run's: the
    // chart's newest second has begun by the counter's time, and one within a second or so of it
    // comes (the counter once ran on the phase's clock, 5–7 s from the chart's).
    const clocks = await live.clocks();
    expect(clocks.navText).toBe(clocks.elapsedText);
    expect(clocks.chartLastStartMs).toBeLessThanOrEqual(clocks.elapsedMs);
    await expect
      .poll(
        async () => {
          const { elapsedMs, chartLastStartMs } = await live.clocks();
          return elapsedMs - chartLastStartMs;
        },
        { timeout: 30_000 },
      )
      .toBeLessThan(2000);

    const fitsOneScreen = () => fitsProjectorScreen(app, live);
    await fitsOneScreen();

    // The same seconds' throughput, chosen with the keyboard, in the same room.
    await live.showChart("throughput");
    const throughput = await live.chartFigures();
    expect(throughput.seconds).toBeGreaterThan(1);
    expect(throughput.seconds).toBe(throughput.runSeconds);
    expect(throughput.total).toBeGreaterThan(0);
    expect(throughput.total).toBeLessThanOrEqual(throughput.done);
    await fitsOneScreen();
    await keepScreenshot(app, "live-lab-throughput-projector");
    await live.showChart("latency");
    await live.stop();
    await live.waitForStatus("stopped");
  });

  test("keeps its knobs, percentiles and chart on the projector screen after 15 knob changes", async ({
    app,
  }) => {
    const { shell, live } = await labOnProjector(app);
    const lab = app.getByTestId("live-lab");
    const labHeight = async () => (await lab.boundingBox())?.height ?? 0;
    const heightBefore = await labHeight();

    // A class at work: stalls in a tenth of the requests and none, fifteen times.
    const changes = 15;
    for (let change = 0; change < changes; change += 1) {
      await live.moveSlider("stallProbability", change % 2 === 0 ? "End" : "Home");
      await expect(live.markers).toHaveCount(change + 1);
    }
    // The changes take the room beside the chart: the lab is no taller than before them, and
    // the newest change is in view in the list.
    expect(await labHeight()).toBeLessThanOrEqual(heightBefore + 1);
    await fitsProjectorScreen(app, live);
    const newestShown = async () => {
      const list = app.locator(".live-markers-scroll");
      const [listBox, newestBox] = [
        await list.boundingBox(),
        await live.markers.last().boundingBox(),
      ];
      return (
        listBox !== null &&
        newestBox !== null &&
        newestBox.y >= listBox.y - 1 &&
        newestBox.y + newestBox.height <= listBox.y + listBox.height + 1 &&
        listBox.y + listBox.height <= 768
      );
    };
    await expect.poll(newestShown).toBe(true);
    await keepScreenshot(app, "live-lab-15-changes-projector");

    await shell.setLanguage("zh-CN");
    await expect(app.locator("#live-markers-title")).toHaveText("调节记录");
    await expect(live.markers.last()).toContainText("卡顿");
    expect(await labHeight()).toBeLessThanOrEqual(heightBefore + 1);
    await fitsProjectorScreen(app, live);
    await expect.poll(newestShown).toBe(true);
    await keepScreenshot(app, "zh-live-lab-15-changes-projector");
    await shell.useDarkTheme();
    await keepScreenshot(app, "zh-live-lab-15-changes-projector-dark");
    await shell.setLanguage("en");
    await live.stop();
    await live.waitForStatus("stopped");
  });

  test("knobs move while it runs, the chart answers, and the session is kept with its markers", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.runFromList(LIVE_LAB);
    const live = new LiveRunPage(app);
    await live.waitForStatus("running");
    await expect(live.knobs).toBeVisible();
    await expect(live.progress).toContainText("runs until you stop it");
    await expect.poll(() => live.timelineSeconds(), { timeout: 60_000 }).toBeGreaterThan(2);

    // Each knob is checked on the seconds after its marker against the last second before it.
    // The first two move while the lab has room (16 clients at 400 requests a second hold a mean
    // of 40 ms; the lab's is 10 ms, these make it 25): no backlog builds up to drain and fool a
    // comparison. Their bounds are the delays they inject, which a busy machine only adds to.
    const after = async (marker: number) => {
      const atMs = Number(await live.markers.nth(marker).getAttribute("data-at-ms"));
      const second = await live.lastSecond();
      return second.atMs > atMs ? second : null;
    };
    const poll = (check: () => Promise<boolean>) =>
      expect.poll(check, { timeout: 30_000 }).toBe(true);

    // Longer stalls (1 % of requests): the p99.9, a stall, grows above the one before and to at
    // least the new stall length.
    const stallMs = msOf(await live.knobValue("stallMs"));
    const shortStalls = await live.lastSecond();
    const longerMs = msOf(await live.sliderToMax("stallMs"));
    expect(longerMs).toBeGreaterThan(stallMs);
    await expect(live.markers).toHaveCount(1);
    await poll(async () => {
      const p999Ms = (await after(0))?.p999Ms ?? 0;
      return p999Ms >= longerMs && p999Ms > shortStalls.p999Ms;
    });

    // A slower service: the median request grows above the one before and to about the service
    // time (a lognormal service time's median is the knob's; a few hundred requests' is within a
    // few percent of it, and a request's latency holds its service time).
    const fasterService = await live.lastSecond();
    const serviceMs = msOf(await live.knobValue("serviceMs"));
    const slowerMs = msOf(await live.moveSlider("serviceMs", "PageUp"));
    expect(slowerMs).toBeGreaterThan(serviceMs);
    await expect(live.markers).toHaveCount(2);
    await poll(async () => {
      const p50Ms = (await after(1))?.p50Ms ?? 0;
      return p50Ms >= 0.9 * slowerMs && p50Ms > fasterService.p50Ms;
    });

    // Stalls in a tenth of the requests (past what 16 clients hold: latencies from then on only
    // grow): the last second's p99 is a stall, at least its length.
    expect(await live.sliderToMax("stallProbability")).toBe("10 %");
    await expect(live.markers).toHaveCount(3);
    await poll(async () => ((await after(2))?.p99Ms ?? 0) >= longerMs);
    await keepScreenshot(app, "live-lab-stalls");

    // Hedged requests: backups go out, and their cost shows per second.
    await live.setMode("hedged");
    await expect(live.markers).toHaveCount(4);
    await poll(async () => ((await after(3))?.extraPercent ?? 0) > 0);
    await live.setReplicas(3);
    await expect(live.markers).toHaveCount(5);
    await expect(live.markers.nth(4)).toContainText("replicas 3");
    // The live chart writes the changes' labels by their lines too.
    await expect(app.getByTestId("live-timeline").locator("canvas")).toHaveAttribute(
      "data-marker-labels",
      /^[3-5]$/,
    );
    // The throughput chart marks the same changes, where a knob's effect on the rate shows.
    await live.showChart("throughput");
    await expect(live.timeline).toHaveAttribute("data-markers", "5");
    await expect(live.timeline.locator("canvas")).toHaveAttribute("data-marker-labels", /^[1-5]$/);
    await keepScreenshot(app, "live-lab-throughput-markers");
    await live.showChart("latency");
    await keepScreenshot(app, "live-lab-hedged");

    const shell = new AppShell(app);
    await shell.setProjector(true);
    await keepScreenshot(app, "live-lab-projector");
    await shell.setLanguage("zh-CN");
    await expect(live.knobs).toContainText("调节旋钮");
    await keepScreenshot(app, "zh-live-lab-projector");
    await shell.setLanguage("en");
    await shell.setProjector(false);

    await live.setMode("tied-server");
    await expect(live.markers).toHaveCount(6);
    await live.stop();
    await live.waitForStatus("stopped");
    await expect(live.knobs).toHaveCount(0);
    await live.openResult();

    const detail = new RunDetailPage(app);
    await detail.waitLoaded();
    await expect(detail.view).toHaveAttribute("data-status", "stopped");
    const overTime = app.getByTestId("over-time-chart");
    await expect(overTime).toHaveAttribute("data-markers", "6");
    // The changes' labels are written on the chart by their lines, not only in its tooltips;
    // close ones stack, at least three rows of them.
    const markerLabels = overTime.locator("canvas");
    await expect(markerLabels).toHaveAttribute("data-marker-labels", /^[3-6]$/);
    const throughput = app.getByTestId("throughput-over-time-chart");
    await expect(throughput).toHaveAttribute("data-markers", "6");
    await expect(throughput.locator("canvas")).toHaveAttribute("data-marker-labels", /^[1-6]$/);
    await overTime.scrollIntoViewIfNeeded();
    await keepScreenshot(app, "live-lab-marker-labels");
    const saved = app.getByTestId("run-markers").locator("li");
    await expect(saved.nth(0)).toContainText("stall length");
    await expect(saved.nth(1)).toContainText("service");
    await expect(saved.nth(2)).toContainText("stalls");
    await expect(saved.nth(3)).toContainText("mode hedged");
    await expect(app.getByTestId("tail-breakdown")).toBeVisible();
    await expect(app.getByTestId("timing-table")).toBeVisible();
    await keepScreenshot(app, "live-lab-saved-run");
  });
});
