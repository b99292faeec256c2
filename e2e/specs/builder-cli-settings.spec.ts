import { expect, test } from "../support/fixtures.ts";
import { fieldErrorOf } from "../pages/form-field.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";

test.describe("The builder's CLI settings", () => {
  test("ranges, warm-up, limits, multipart and request settings: checked at their box, kept when saved", async ({
    app,
  }) => {
    const experiments = new ExperimentsPage(app);
    await experiments.open();
    await experiments.newExperiment();
    await experiments.fill({ name: "Ranged reads", clients: "2", samples: "20", sizes: "4KiB" });
    const box = (id: string) => experiments.builder.getByTestId(id);
    await box("experiment-advanced").locator("summary").click();
    await box("experiment-workload").check();
    await box("experiment-workload-ops").fill("get:100");
    await box("experiment-workload-range").fill("random:1KiB");
    await box("experiment-workload-warmup").fill("soon");
    await box("experiment-key-prefix").fill("lab18");
    await box("experiment-transport").selectOption("sdk");
    await box("experiment-request-timeout").fill("2min");
    await experiments.expectPreviewInvalid();
    await expect(fieldErrorOf(box("experiment-workload-warmup"))).toContainText("soon");

    await box("experiment-workload-warmup").fill("1s");
    await experiments.previewFigures();
    await experiments.save();
    // Read back from the saved spec, not from the draft the builder keeps.
    await box("experiment-back").click();
    await experiments.row("Ranged reads").getByTestId("experiment-row-open").click();
    await expect(box("experiment-workload-range")).toHaveValue("random:1KiB");
    await expect(box("experiment-workload-warmup")).toHaveValue("1s");
    await expect(box("experiment-key-prefix")).toHaveValue("lab18");
    await expect(box("experiment-transport")).toHaveValue("sdk");
    await expect(box("experiment-request-timeout")).toHaveValue("2min");
  });
});
