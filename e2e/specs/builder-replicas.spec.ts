import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { startTestbedProcess } from "../support/processes.ts";
import { fieldErrorOf } from "../pages/form-field.ts";
import { EndpointsPage } from "../pages/endpoints-page.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";

test.describe("Replica endpoints in the builder", () => {
  test("two saved endpoints of one server as replicas: checked at their field, kept with the experiment, a hedged run sends to both", async ({
    app,
  }) => {
    const testbed = await startTestbedProcess({ replicas: 2 });
    try {
      const endpoints = new EndpointsPage(app);
      await endpoints.open();
      const servers = [
        { name: "Replica A", url: testbed.urls[0], bucket: testbed.bucket },
        { name: "Replica B", url: testbed.urls[1], bucket: testbed.bucket },
        // The same server, but another bucket: not a replica of the others.
        { name: "Other bucket", url: testbed.urls[1], bucket: "elsewhere" },
      ];
      for (const server of servers) {
        await endpoints.startAdd();
        await endpoints.fill({
          kind: "minio",
          ...server,
          accessKeyId: testbed.accessKeyId,
          secret: testbed.secretAccessKey,
        });
        await endpoints.save();
      }

      const experiments = new ExperimentsPage(app);
      await experiments.open();
      await experiments.newExperiment();
      await experiments.fill({ name: "Two replicas", clients: "2", samples: "40", sizes: "1KiB" });
      await experiments.chooseEndpoint("Replica A");
      const replicas = experiments.builder.getByTestId("experiment-replicas");
      const replica = (name: string) =>
        replicas
          .locator(`[data-testid="experiment-replica"][data-name="${name}"]`)
          .getByTestId("experiment-replica-check");
      await replica("Other bucket").check();
      await experiments.expectPreviewInvalid();
      await expect(fieldErrorOf(replica("Other bucket"))).toContainText(
        'serves bucket "elsewhere": expected "e2e-bucket"',
      );
      await replica("Other bucket").uncheck();
      await replica("Replica B").check();
      await experiments.previewFigures();

      const box = (id: string) => experiments.builder.getByTestId(id);
      await box("experiment-mode").selectOption("hedged");
      await expect(box("experiment-one-replica")).toBeHidden();
      // A backup for every request that is not answered at once, to the other replica.
      await box("experiment-hedge-kind").selectOption("fixed");
      await box("experiment-hedge-delay").fill("0");
      await box("experiment-budget").fill("100");
      await experiments.previewFigures();
      await experiments.save();
      await keepScreenshot(app, "builder-replicas");

      // Read back from the saved experiment, not from the draft the builder keeps.
      await box("experiment-back").click();
      await experiments.row("Two replicas").getByTestId("experiment-row-open").click();
      await expect(replica("Replica B")).toBeChecked();
      await expect(replica("Other bucket")).not.toBeChecked();

      await experiments.run();
      const live = new LiveRunPage(app);
      await live.waitForStatus("complete");
      await live.openResult();
      const detail = new RunDetailPage(app);
      await detail.waitLoaded();
      await expect(app.getByTestId("run-endpoints")).toHaveText(
        `${testbed.urls[0]}, ${testbed.urls[1]}`,
      );
      const hedge = app.getByTestId("hedge-cost").first();
      await expect(hedge).toHaveAttribute("data-same-replica", "0");
      const op = (await hedge.getAttribute("data-op")) ?? "";
      const requests = (await detail.requestsByOp())[op] ?? 0;
      const attempts = Number(await hedge.getAttribute("data-attempts"));
      expect(attempts, `${op}: backups went out beside the first attempts`).toBeGreaterThan(
        requests,
      );
    } finally {
      await testbed.stop();
    }
  });
});
