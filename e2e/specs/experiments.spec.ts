import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { callApi } from "../support/page-api.ts";
import { AppShell } from "../pages/app-shell.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";

const SAMPLES = 120;
/** Write, read and cleanup: each phase sends `samples` requests at each point. */
const PHASES = 3;

test.describe("Experiments", () => {
  test("a student sweeps 2 client counts × 2 sizes, watches it run and opens the result", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.newExperiment();
    await experiments.fill({
      name: "Sweep 2x2",
      clients: "2, 4",
      samples: String(SAMPLES),
      sizes: "4KiB, 16KiB",
    });
    await expect(experiments.endpointSelect).toHaveValue("testbed");

    // The preview follows the typed fields a render later: read it once it shows the sweep.
    await expect(experiments.preview.getByTestId("sweep-preview-points")).toHaveText("4");
    const preview = await experiments.previewFigures();
    expect(preview.points).toBe(4);
    expect(preview.requests).toBe(4 * PHASES * SAMPLES);
    await keepScreenshot(app, "experiment-builder-preview");

    await experiments.save();
    await experiments.run();

    const live = new LiveRunPage(app);
    await expect(live.view).toBeVisible();
    await live.waitForStatus(/starting|running|complete/);
    const first = await live.waitForProgressBeyond(0);
    expect((await live.progressFigures()).total).toBe(4 * PHASES * SAMPLES);
    if ((await live.currentStatus()) === "running") {
      await live.expectPercentilesShown();
      await expect.poll(() => live.timelineSeconds()).toBeGreaterThan(0);
      await keepScreenshot(app, "live-run-mid-run");
      await live.waitForProgressBeyond(first);
    }

    await live.waitForStatus("complete");
    const end = await live.progressFigures();
    expect(end.done).toBe(end.total);
    await live.expectPercentilesShown();
    await expect(live.timeline.locator("canvas")).toBeVisible();
    await keepScreenshot(app, "live-run-complete");

    await live.openResult();
    const detail = new RunDetailPage(app);
    await detail.waitLoaded();
    expect(await detail.pointCount()).toBe(4);
    await expect(detail.resultRows).toHaveCount(4 * PHASES);
    await expect(detail.view).toHaveAttribute("data-points", "4");
    for (const chart of [
      "timeline-chart",
      "histogram-chart",
      "cdf-chart",
      "ladder-chart",
    ] as const) {
      await detail.expectChartDrawn(chart);
    }
    await expect(app.getByTestId("sweep-charts")).toBeVisible();
    await keepScreenshot(app, "run-detail-sweep");
  });

  test("bad input in the builder names the field at fault and keeps what was typed @headed", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.newExperiment();
    await experiments.fill({ name: "Typos", clients: "0" });
    await experiments.expectPreviewInvalid();
    await expect(experiments.fieldError("clients")).toBeVisible();
    await expect(experiments.fieldError("clients")).toContainText(/clients|0/);
    await expect(experiments.input("clients")).toHaveValue("0");

    await experiments.fill({ clients: "abc" });
    await expect(experiments.fieldError("clients")).toContainText("abc");
    await expect(experiments.input("clients")).toHaveValue("abc");

    await experiments.fill({ clients: "2", sizes: "4XB" });
    await expect(experiments.fieldError("sizes")).toContainText("4XB");
    await expect(experiments.fieldError("sizes")).toContainText(/unit|size/i);
    await expect(experiments.fieldError("clients")).toHaveCount(0);
    await expect(experiments.fieldError("samples")).toHaveCount(0);
    await keepScreenshot(app, "experiment-builder-errors");

    // Run refuses, says why at the field, and leaves the form as typed.
    await experiments.run();
    await expect(experiments.error).toBeVisible();
    await expect(experiments.builder).toBeVisible();
    await expect(experiments.fieldError("sizes")).toContainText("4XB");
    await expect(experiments.input("name")).toHaveValue("Typos");
    await expect(experiments.input("clients")).toHaveValue("2");
    await expect(experiments.input("sizes")).toHaveValue("4XB");
  });

  test("100 000 clients: the builder warns at the clients field, before Run, that this machine cannot hold them", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.newExperiment();
    await experiments.fill({ name: "Too many", clients: "100000", samples: "300000" });
    await experiments.expectPreviewInvalid();
    // The backend's capacity check names `clients`: the warning sits at that box.
    await expect(experiments.fieldError("clients")).toBeVisible();
    await expect(experiments.fieldError("clients")).toContainText(/100,?000|machine|open files/i);
    await expect(experiments.input("clients")).toHaveValue("100000");
    await keepScreenshot(app, "experiment-builder-capacity");
    await experiments.fill({ clients: "8", samples: "256" });
    await expect(experiments.fieldError("clients")).toHaveCount(0);
  });

  test("an empty name runs as 'Untitled experiment', and the marks go once the fields are fixed", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.newExperiment();
    await experiments.fill({ name: "", clients: "2", sizes: "4XB" });
    await experiments.expectPreviewInvalid();
    await experiments.run();
    // The empty name is not the problem: the size still is, and stays marked.
    await expect(experiments.error).toHaveText("Fix the marked fields first.");
    await expect(experiments.fieldError("sizes")).toContainText("4XB");
    await expect(experiments.fieldError("name")).toHaveCount(0);
    await experiments.fill({ sizes: "4KiB", samples: "40" });
    await expect(experiments.error).toHaveCount(0);
    await experiments.run();
    const live = new LiveRunPage(app);
    await live.waitForStatus("complete");
    const [run] = await callApi(app, "listRuns", undefined);
    expect(run?.name).toBe("Untitled experiment");
  });

  test("the built-in size sweep at a fixed total draws one line per operation, to 2 MiB @headed", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.runFromList("Object size sweep at fixed total");
    const live = new LiveRunPage(app);
    await live.waitForStatus("complete");
    await live.openResult();
    const detail = new RunDetailPage(app);
    await detail.waitLoaded();
    expect(await detail.pointCount()).toBe(9);
    const sweep = app.getByTestId("sweep-charts");
    await expect(sweep).toHaveAttribute("data-axes", "objectSize");
    // PUT and GET: one line each through the nine sizes, 8 KiB to 2 MiB.
    await expect(app.getByTestId("sweep-charts-size-mbps")).toHaveAttribute("data-lines", "2");
    await expect(app.getByTestId("sweep-charts-size-latency-GET")).toHaveAttribute(
      "data-lines",
      "3",
    );
    await sweep.scrollIntoViewIfNeeded();
    await keepScreenshot(app, "run-detail-fixed-total-sweep");
  });

  test("a lecturer walks the class through the tail-latency lab on a projector, in both languages", async ({
    app,
  }) => {
    const shell = new AppShell(app);
    await shell.setProjector(true);
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await app.getByTestId("tail-guide-open").click();
    const guide = app.getByTestId("tail-guide");
    await expect(guide).toHaveAttribute("data-step", "why");
    await keepScreenshot(app, "tail-guide-projector");
    for (const step of ["measure", "run", "compare", "hedging", "tied", "conclusion", "next"]) {
      await app.getByTestId("tail-guide-next").click();
      await expect(guide).toHaveAttribute("data-step", step);
      if (step !== "tied") continue;
      // When tied wins: the two labs that show it, each a button away.
      for (const lab of ["builtin-tied-cancel", "builtin-live-tail"]) {
        await expect(guide.getByTestId(`tail-guide-run-${lab}`)).toBeVisible();
      }
      await keepScreenshot(app, "tail-guide-tied-projector");
    }
    await shell.setLanguage("zh-CN");
    await app.getByTestId("tail-guide-back").click();
    await app.getByTestId("tail-guide-back").click();
    await expect(guide).toHaveAttribute("data-step", "tied");
    await expect(guide).toContainText("服务端取消");
    await keepScreenshot(app, "tail-guide-tied-projector-zh");
    await app.getByTestId("tail-guide-next").click();
    await app.getByTestId("tail-guide-next").click();
    await expect(guide.locator("h2")).toHaveText(/\p{Script=Han}/u);
    await keepScreenshot(app, "tail-guide-projector-zh");
    await app.getByTestId("tail-guide-next").click();
    await expect(guide).toHaveCount(0);
  });

  test("a draft survives a reload of the page", async ({ app }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.newExperiment();
    await experiments.fill({ name: "Half done", clients: "1, 4" });
    await app.reload();
    await expect(experiments.builder).toBeVisible();
    await expect(experiments.input("name")).toHaveValue("Half done");
    await expect(experiments.input("clients")).toHaveValue("1, 4");
    await expect(experiments.preview).toHaveAttribute("data-points", "2");
  });
});
