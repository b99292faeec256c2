import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "../support/fixtures.ts";
import { REPO_ROOT } from "../support/processes.ts";
import { ExperimentsPage } from "../pages/experiments-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

/** `taillab run` on the embedded testbed into the host's library, as a user does beside the app. */
function cliRunInto(results: string, args: string[]): string {
  const printed = execFileSync(
    process.execPath,
    [join(REPO_ROOT, "apps", "cli", "bin", "taillab.js"), "run", ...args],
    { env: { ...process.env, TAILLAB_RESULTS_DIR: results }, encoding: "utf8" },
  );
  return /Run id: (\S+)/.exec(printed)?.[1] ?? "";
}

test("a run the CLI made opens in the builder, is edited and runs, keeping what the builder has no box for", async ({
  app,
  webHost,
}) => {
  const cliRun = cliRunInto(join(webHost.dataDir, "results"), [
    ...["--clients", "2", "--samples", "20", "--size", "1KiB"],
    // No box in the builder: kept, and said so.
    ...["--workers", "1", "--name", "From the CLI"],
  ]);
  const runs = new RunsPage(app);
  await runs.open();
  await runs.openRun(cliRun);
  const detail = new RunDetailPage(app);
  await detail.waitLoaded(cliRun);
  await detail.editAndRun();

  const experiments = new ExperimentsPage(app);
  await expect(experiments.builder).toBeVisible();
  await expect(experiments.input("name")).toHaveValue("From the CLI");
  await expect(experiments.input("clients")).toHaveValue("2");
  await expect(experiments.input("samples")).toHaveValue("20");
  await expect(experiments.input("sizes")).toHaveValue("1KiB");
  await expect(
    experiments.builder.getByTestId("experiment-kept-settings").locator("code"),
  ).toHaveText(["workers = 1"]);
  await experiments.fill({ clients: "4", name: "From the CLI, 4 clients" });
  await experiments.previewFigures();
  await experiments.run();

  const live = new LiveRunPage(app);
  await live.waitForStatus("complete");
  await live.openResult();
  await detail.waitLoaded();
  await expect(detail.view).not.toHaveAttribute("data-run-id", cliRun);
  expect(await detail.requestsByOp()).toEqual({ PUT: 20, GET: 20, DELETE: 20 });
  await expect(app.getByTestId("spec-summary").locator('dt:text-is("Clients") + dd')).toHaveText(
    "4",
  );
  await expect(app.locator("h1")).toContainText("From the CLI, 4 clients");
});
