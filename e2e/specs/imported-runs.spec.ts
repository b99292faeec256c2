import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "../support/fixtures.ts";
import { REPO_ROOT } from "../support/processes.ts";
import { ComparePage } from "../pages/compare-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

const FIXTURES = join(REPO_ROOT, "packages", "store", "src", "test-support", "tool-fixtures");

/** `taillab runs import FILE` into the host's library, as a user does beside the open app. */
function importInto(results: string, file: string): string {
  const printed = execFileSync(
    process.execPath,
    [join(REPO_ROOT, "apps", "cli", "bin", "taillab.js"), "runs", "import", join(FIXTURES, file)],
    { env: { ...process.env, TAILLAB_RESULTS_DIR: results }, encoding: "utf8" },
  );
  return /imported as (\S+)/.exec(printed)?.[1] ?? "";
}

test("results imported from warp and s3bench show, open and compare in the app", async ({
  app,
  webHost,
}) => {
  const results = join(webHost.dataDir, "results");
  const warp = importInto(results, "warp-get.csv.zst");
  const s3bench = importInto(results, "s3bench-minio.txt");
  const runs = new RunsPage(app);
  await runs.open();
  await expect(runs.row(warp).getByTestId("run-imported")).toHaveAttribute("data-tool", "warp");
  await expect(runs.row(s3bench).getByTestId("run-imported")).toHaveText("imported from s3bench");

  await runs.openRun(s3bench);
  const detail = new RunDetailPage(app);
  await detail.waitLoaded(s3bench);
  expect(await detail.requestsByOp()).toEqual({ PUT: 40, GET: 40 });
  // s3bench printed 0.021 s for its writes' 99th percentile, and no 99.9th.
  await expect(detail.resultRows.first()).toHaveAttribute("data-p99-ms", "21");
  await expect(detail.resultRows.first()).not.toHaveAttribute("data-p999-ms", /.+/);
  await expect(app.getByTestId("tool-latency-note")).toBeVisible();
  await expect(app.getByTestId("run-imported-file")).toHaveText("s3bench-minio.txt");

  await runs.open();
  await runs.select(s3bench);
  await runs.select(warp);
  await runs.compareSelected();
  const compare = new ComparePage(app);
  await compare.waitLoaded(2);
  expect(await compare.comparedRunIds()).toEqual([s3bench, warp]);
});
