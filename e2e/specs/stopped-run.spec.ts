import { callApi } from "../support/page-api.ts";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

test.describe("A sweep stopped part way", () => {
  test("is marked stopped, with the points it ran, on the live screen, in its detail and in the library", async ({
    app,
  }) => {
    const live = new LiveRunPage(app);
    await live.open();
    // Three points, the second too long to end on its own: the stop lands in it however slowly
    // the machine runs.
    const { runId } = await callApi(app, "startRun", {
      experiment: {
        name: "Sweep to stop",
        endpointId: "testbed",
        spec: {
          clients: [1],
          samples: 30,
          objectSize: "4KiB",
          points: [
            { clients: 1, samples: 30, objectSize: "4KiB" },
            { clients: 2, samples: 1_000_000, objectSize: "4KiB" },
            { clients: 4, samples: 30, objectSize: "4KiB" },
          ],
        },
      },
    });
    await expect(live.progress).toContainText("Point 2 of 3", { timeout: 120_000 });
    await live.stop();
    await live.waitForStatus("stopped");
    await expect(live.finishedBanner).toHaveAttribute("data-points-finished", "1");
    await expect(live.finishedBanner).toContainText(
      "Stopped in point 2 of 3: 1 of 3 points finished",
    );
    await keepScreenshot(app, "live-run-stopped-sweep");

    await live.openResult();
    const detail = new RunDetailPage(app);
    await detail.waitLoaded(runId);
    await expect(detail.view).toHaveAttribute("data-status", "stopped");
    await expect(app.getByTestId("run-status")).toHaveText("⚠ stopped");
    const banner = app.getByTestId("stopped-banner");
    await expect(banner).toHaveAttribute("data-points-ran", "2");
    await expect(banner).toContainText("Stopped in point 2 of 3: 1 of 3 points ran to the end");

    const runs = new RunsPage(app);
    await runs.open();
    const row = runs.row(runId);
    await expect(row).toHaveAttribute("data-status", "stopped");
    await expect(row.getByTestId("run-points-ran")).toHaveText(
      "stopped in point 2 of 3: 1 finished",
    );
    await keepScreenshot(app, "library-stopped-sweep");
  });
});
