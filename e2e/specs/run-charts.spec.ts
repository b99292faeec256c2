import { readFile } from "node:fs/promises";
import { callApi } from "../support/page-api.ts";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { AppShell } from "../pages/app-shell.ts";
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

    // Named after the run as well as the chart: the same chart of two runs makes two files.
    const png = await detail.downloadChart("cdf-chart", "png");
    expect(png.fileName).toBe(`taillab-tail-of-4-clients-${runId}-cdf-and-queueing-model-fit.png`);
    const pngBytes = await readFile(png.path);
    expect(pngBytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // 1 200 × 675 drawn at twice the pixels, whatever the window's size.
    expect([pngBytes.readUInt32BE(16), pngBytes.readUInt32BE(20)]).toEqual([2400, 1350]);
    const svg = await detail.downloadChart("timeline-chart", "svg");
    expect(svg.fileName).toBe(`taillab-tail-of-4-clients-${runId}-latency-by-request-index.svg`);
    // Titled, on white.
    expect(svg.text).toMatch(/font-weight="600">Latency by request index<\/text>/);
    expect(svg.text).toMatch(/<rect width="100%" height="100%" fill="#fff(fff)?"\/>/);
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

    // Saved from dark mode, a chart still comes out light: it goes on paper or a slide.
    await new AppShell(app).useDarkTheme();
    const darkPng = await detail.downloadChart("cdf-chart", "png");
    const corner = await app.evaluate(
      async (bytes) => {
        const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
        context.drawImage(bitmap, 0, 0);
        return [...context.getImageData(2, 2, 1, 1).data];
      },
      [...(await readFile(darkPng.path))],
    );
    expect(corner).toEqual([255, 255, 255, 255]);
    await new AppShell(app).themeButton.click();

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
    // Each answered second's percentiles come with their 95 % intervals, drawn as bands.
    expect(Number(await overTime.getAttribute("data-interval-seconds"))).toBeGreaterThan(0);
    await expect(app.getByTestId("over-time-interval-note").first()).toContainText(
      "each second's 95 % interval",
    );
    await app.getByTestId("over-time-percentile-p50").click();
    await app.getByTestId("tail-breakdown").scrollIntoViewIfNeeded();
    await keepScreenshot(app, "run-detail-tail-breakdown");

    // Throughput and errors over the same seconds; a drag on one zooms every time chart.
    const seconds = await overTime.getAttribute("data-seconds");
    const throughput = app.getByTestId("throughput-over-time-chart");
    await expect(throughput).toHaveAttribute("data-seconds", seconds ?? "");
    await expect(app.getByTestId("errors-over-time-chart")).toHaveAttribute("data-total", "0");
    // The phase's 400 requests of 4 KiB moved 1.5625 MiB, second by second.
    const data = app.getByTestId("data-over-time-chart");
    await expect(data).toHaveAttribute("data-seconds", seconds ?? "");
    await expect(data).toHaveAttribute("data-total", "1.5625");
    const phaseCharts = app.getByTestId("phase-charts");
    await expect(phaseCharts).toHaveAttribute("data-time-range", "all");
    const canvas = throughput.locator("canvas");
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    if (!box) throw new Error("the throughput chart has no box");
    await app.mouse.move(box.x + box.width * 0.35, box.y + box.height / 2);
    await app.mouse.down();
    await app.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 5 });
    await app.mouse.up();
    await expect(phaseCharts).not.toHaveAttribute("data-time-range", "all");
    // The run lasts about 2 s and the drag spans less than a second between the seconds' points:
    // the range widens to the two seconds around it rather than show an empty chart.
    const [fromS, toS] = ((await phaseCharts.getAttribute("data-time-range")) ?? "")
      .split("-")
      .map(Number);
    expect((toS ?? 0) - (fromS ?? 0)).toBeGreaterThanOrEqual(1);
    await keepScreenshot(app, "run-detail-time-range");
    await app.getByTestId("over-time-chart-reset-zoom").click();
    await expect(phaseCharts).toHaveAttribute("data-time-range", "all");

    // Hovering one time chart draws a line at the same second on the others.
    await canvas.scrollIntoViewIfNeeded();
    const plot = await canvas.boundingBox();
    if (!plot) throw new Error("the throughput chart has no box");
    await app.mouse.move(plot.x + plot.width * 0.5, plot.y + plot.height / 2);
    // Chart.js handles the pointer on its next animation frame.
    await expect(canvas).toHaveAttribute("data-crosshair-x", /^[\d.]+$/);
    const hovered = await canvas.getAttribute("data-crosshair-x");
    for (const other of ["over-time-chart", "errors-over-time-chart"]) {
      await expect(app.getByTestId(other).locator("canvas")).toHaveAttribute(
        "data-crosshair-x",
        hovered ?? "",
      );
    }
    // The window as it is (keepScreenshot resizes it, which moves the line away).
    await app.screenshot({ path: test.info().outputPath("run-detail-crosshair.png") });
    await app.mouse.move(plot.x + plot.width * 0.5, plot.y - 40);
    await expect(overTime.locator("canvas")).not.toHaveAttribute("data-crosshair-x");
    await app.getByTestId("throughput-over-time-chart-full-screen").click();
    await expect(throughput).toHaveAttribute("data-full-screen", "true");
    await keepScreenshot(app, "run-detail-full-screen");
    await app.keyboard.press("Escape");
    await expect(throughput).toHaveAttribute("data-full-screen", "false");

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
