import { readFile } from "node:fs/promises";
import { callApi } from "../support/page-api.ts";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test.describe("A run's charts", () => {
  test("a student saves the charts for a report, looks at the tail, and runs it again", async ({
    app,
  }) => {
    // A saved experiment on the testbed: the run links back to it.
    const draft = {
      name: "Tail of 4 clients",
      endpointId: "testbed",
      spec: { clients: 4, samples: 400, objectSize: "4KiB" },
    };
    await callApi(app, "saveExperiment", { draft });
    const runs = new RunsPage(app);
    await runs.open();
    const { runId } = await callApi(app, "startRun", { experiment: draft });
    await runs.waitForStatus(runId, "complete");
    await runs.openRun(runId);
    const detail = new RunDetailPage(app);
    await detail.waitLoaded(runId);
    await detail.expectChartDrawn("cdf-chart");

    const png = await detail.downloadChart("cdf-chart", "png");
    expect(png.fileName).toBe("taillab-cdf-and-queueing-model-fit.png");
    expect((await readFile(png.path)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const svg = await detail.downloadChart("timeline-chart", "svg");
    expect(svg.fileName).toMatch(/\.svg$/);
    expect(svg.text).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(svg.text).toMatch(/<polyline points="[\d., ]+"/);
    expect(svg.text).toContain(">Request index</text>");
    // The drawing opens as an image of the chart's size.
    const size = await app.evaluate(async (text) => {
      const image = new Image();
      image.src = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
      await image.decode();
      return { width: image.naturalWidth, height: image.naturalHeight };
    }, svg.text);
    expect(size.width).toBeGreaterThan(300);
    expect(size.height).toBeGreaterThan(150);

    const cdf = detail.chart("cdf-chart");
    await app.getByTestId("cdf-chart-view-ccdf").click();
    await expect(cdf).toHaveAttribute("data-view", "ccdf");
    await app.getByTestId("cdf-chart-percentile-p999").click();
    const logBefore = await cdf.getAttribute("data-log");
    await app.getByTestId("cdf-chart-log").click();
    await expect(cdf).toHaveAttribute("data-log", logBefore === "true" ? "false" : "true");
    await cdf.scrollIntoViewIfNeeded();
    await keepScreenshot(app, "run-detail-ccdf");

    // Beyond s3bench's table: where the time went, where the tail went, each second.
    const timing = app.getByTestId("timing-row");
    await expect(timing).toHaveCount(3);
    expect(Number(await timing.nth(1).getAttribute("data-ttfb-p99-ms"))).toBeGreaterThan(0);
    // A PUT's upload is apart from its wait for the server, a connect apart from the queue.
    expect(Number(await timing.nth(0).getAttribute("data-upload-p99-ms"))).toBeGreaterThan(0);
    expect(await timing.nth(0).getAttribute("data-connect-p99-ms")).not.toBeNull();
    await expect(app.getByTestId("tail-breakdown").getByTestId("tail-row")).toHaveCount(2);
    const slowest = app.getByTestId("tail-breakdown").getByTestId("tail-row").first();
    await expect(slowest.locator('[data-part="connect"]')).toHaveText(/^[\d.,]+ \(/);
    await expect(slowest.locator('[data-part="upload"]')).toHaveText(/^[\d.,]+ \(/);
    await expect(app.getByTestId("tail-breakdown-chart").locator("canvas")).toBeVisible();
    const overTime = app.getByTestId("over-time-chart");
    await expect(overTime.locator("canvas")).toBeVisible();
    expect(Number(await overTime.getAttribute("data-seconds"))).toBeGreaterThan(0);
    await app.getByTestId("over-time-percentile-p50").click();
    await app.getByTestId("tail-breakdown").scrollIntoViewIfNeeded();
    await keepScreenshot(app, "run-detail-tail-breakdown");

    await expect(detail.experimentLink).toHaveText("Experiment: Tail of 4 clients");
    await detail.runAgain();
    const live = new LiveRunPage(app);
    await expect(live.view).toBeVisible();
    await live.waitForStatus("complete");
    const library = await callApi(app, "listRuns", undefined);
    expect(library.map((entry) => entry.name)).toEqual(["Tail of 4 clients", "Tail of 4 clients"]);
    expect(library[0]?.points).toEqual(library[1]?.points);
  });
});
