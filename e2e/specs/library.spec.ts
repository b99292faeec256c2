import type { Page } from "@playwright/test";
import { callApi } from "../support/page-api.ts";
import { expect, keepScreenshot, test } from "../support/fixtures.ts";
import { parseCsv } from "../support/downloads.ts";
import type { TestbedProcess } from "../support/processes.ts";
import {
  expectSelfContainedHtml,
  expectSummaryCsv,
  openReportOffline,
  parseRunJson,
} from "../support/report-files.ts";
import { ComparePage } from "../pages/compare-page.ts";
import { RunDetailPage } from "../pages/run-detail-page.ts";
import { RunsPage } from "../pages/runs-page.ts";

const SAMPLES = 60;
/** Every run of the library's stories: one point, 4 KiB objects. */
const at = (clients: number) => ({ clients, samples: SAMPLES, objectSize: "4KiB" });

/** The lab's server as an endpoint, its secret stored by the backend (set up through the bridge). */
async function addLabServer(page: Page, testbed: TestbedProcess): Promise<string> {
  const endpoint = await callApi(page, "addEndpoint", {
    name: "Lab server",
    kind: "custom",
    url: testbed.urls[0],
    bucket: testbed.bucket,
    credentials: { kind: "stored", accessKeyId: testbed.accessKeyId },
    secretAccessKey: testbed.secretAccessKey,
  });
  return endpoint.id;
}

test.describe("Results library", () => {
  test("a student compares the lab server with the embedded testbed and exports both", async ({
    app,
    testbed,
    webHost,
  }) => {
    const endpointId = await addLabServer(app, testbed);
    const runs = new RunsPage(app);
    await runs.open();
    await expect(app.getByTestId("runs-empty")).toBeVisible();
    // The same workload on two servers: the comparison lines up their points.
    const first = await runs.runToCompletion("Lab server, 4 clients", endpointId, at(4));
    const second = await runs.runToCompletion("Embedded testbed, 4 clients", "testbed", at(4));
    await expect(runs.rows).toHaveCount(2);
    await keepScreenshot(app, "results-library");

    await runs.search("embedded");
    await expect(runs.rows).toHaveCount(1);
    await expect(runs.row(second)).toBeVisible();
    await runs.search("");
    await expect(runs.rows).toHaveCount(2);

    await runs.select(first);
    await runs.select(second);
    await runs.compareSelected();
    const compare = new ComparePage(app);
    await compare.waitLoaded(2);
    expect(await compare.comparedRunIds()).toEqual([first, second]);
    await expect(compare.rows.first()).toHaveAttribute("data-baseline", "true");
    for (const row of await compare.rows.all()) {
      await expect(row).toHaveAttribute("data-present", "true");
      expect(Number(await row.getAttribute("data-p999-ms"))).toBeGreaterThan(0);
    }
    await expect(compare.ladder.locator("canvas")).toBeVisible();
    // Both runs used normal requests: no mode comparison to show.
    await expect(compare.modeComparison).toHaveCount(0);
    await keepScreenshot(app, "compare-two-runs");

    const compareCsv = expectSummaryCsv(await compare.export("csv"), 2 * 3);
    const runIdColumn = compareCsv[0]!.indexOf("Run ID");
    expect(new Set(compareCsv.slice(1).map((row) => row[runIdColumn]))).toEqual(
      new Set([first, second]),
    );
    const compareHtml = await compare.export("html");
    expectSelfContainedHtml(compareHtml, ["Lab server, 4 clients", "Embedded testbed, 4 clients"]);
    const report = await openReportOffline(app.context(), compareHtml);
    await expect(report.page.locator("svg").first()).toBeVisible();
    await keepScreenshot(report.page, "html-report-comparison");
    expect(report.fetched, "what the report fetched offline").toEqual([]);
    expect(report.errors, "script errors in the report").toEqual([]);
    await report.page.close();
    const compareJson = parseRunJson(await compare.export("json"));
    expect(compareJson.map((run) => run.meta.id)).toEqual([first, second]);
    for (const text of [compareHtml.text, JSON.stringify(compareJson)]) {
      expect(text, "exports never carry the secret").not.toContain(testbed.secretAccessKey);
    }

    await runs.open();
    await runs.openRun(first);
    const detail = new RunDetailPage(app);
    await detail.waitLoaded(first);
    await expect(detail.resultRows).toHaveCount(3);
    await keepScreenshot(app, "run-detail");

    // The figures as s3bench prints them, to paste into a lab report.
    await app
      .context()
      .grantPermissions(["clipboard-read", "clipboard-write"], { origin: webHost.origin });
    const copied = await detail.copyTable();
    expect(copied).toContain("Results Summary for Write Operation(s)");
    expect(copied).toContain("Results Summary for Read Operation(s)");
    expect(copied).toMatch(/Read times 99th %ile: +\d+\.\d+ s/);

    expectSummaryCsv(await detail.export("csv"), 3);
    const requests = parseCsv((await detail.export("csv-requests")).text).filter(
      (row) => row.length > 1,
    );
    expect(requests[0]).toEqual(expect.arrayContaining(["point", "op", "key"]));
    // Every request of the three phases, each one row (a retried request may add attempts).
    expect(requests.length - 1).toBeGreaterThanOrEqual(3 * SAMPLES);
    const [json] = parseRunJson(await detail.export("json"));
    expect(json?.meta.id).toBe(first);
    const html = await detail.export("html");
    expectSelfContainedHtml(html, ["Lab server, 4 clients"]);
    expect(html.text).not.toContain(testbed.secretAccessKey);
  });

  test("runs that differ only in clients are compared point by point", async ({ app }) => {
    const runs = new RunsPage(app);
    await runs.open();
    const two = await runs.runToCompletion("Testbed, 2 clients", "testbed", at(2));
    const eight = await runs.runToCompletion("Testbed, 8 clients", "testbed", at(8));
    await runs.select(two);
    await runs.select(eight);
    await runs.compareSelected();

    const compare = new ComparePage(app);
    await compare.waitLoaded(2);
    // No point in common: the runs' only points are compared, and the screen says how.
    await expect(compare.pairedNote).toBeVisible();
    const rows = await compare.rowFigures();
    expect(rows.map((row) => [row.runId, row.present, row.clients, row.differs])).toEqual([
      [two, true, 2, []],
      [eight, true, 8, ["clients"]],
    ]);
    for (const row of rows) expect(row.p999Ms).toBeGreaterThan(0);
    await expect(compare.table.getByTestId("compare-point")).toHaveText([/2 clients/, /8 clients/]);
    await expect(compare.ladder).toHaveAttribute("data-lines", "2");
    await keepScreenshot(app, "compare-different-clients");
  });

  test("two sweeps compared point by point: every point and phase against the baseline", async ({
    app,
  }) => {
    const runs = new RunsPage(app);
    await runs.open();
    const sweep = { clients: 2, samples: SAMPLES, objectSize: ["4KiB", "16KiB"] };
    const first = await runs.runToCompletion("Sizes, first", "testbed", sweep);
    const again = await runs.runToCompletion("Sizes, again", "testbed", sweep);
    await runs.select(first);
    await runs.select(again);
    await runs.compareSelected();

    const compare = new ComparePage(app);
    await compare.waitLoaded(2);
    await expect(compare.allPoints).toBeVisible();
    const summaries = await Promise.all(
      [first, again].map(async (runId) => (await callApi(app, "getRun", { runId })).summary),
    );
    const figure = (run: number, sizeBytes: number, op: string, key: "p999" | "p50") => {
      const point = summaries[run]!.points.find((p) => p.params.objectSizeBytes === sizeBytes);
      return point?.phases.find((phase) => phase.op === op)?.latencyMs?.[key] ?? Number.NaN;
    };
    // 2 sizes × write, read and cleanup: each run's p99.9 there, the second against the first.
    const expectRows = async (key: "p999" | "p50") => {
      const rows = await compare.allPointsRows();
      expect(rows.map((row) => `${row.sizeBytes} ${row.op}`).sort()).toEqual(
        ["4096 PUT", "4096 GET", "4096 DELETE", "16384 PUT", "16384 GET", "16384 DELETE"].sort(),
      );
      for (const row of rows) {
        const expected = [0, 1].map((run) => figure(run, row.sizeBytes, row.op, key));
        expect(row.values, row.key).toEqual(expected);
        expect(row.ratios[0], row.key).toBeNaN();
        expect(row.ratios[1], row.key).toBeCloseTo(expected[1]! / expected[0]!, 9);
      }
    };
    await expectRows("p999");
    await keepScreenshot(app, "compare-all-points");
    // Each run's p50, p99 and p99.9 on one chart: a line each, a hue per run, a shade and a dash
    // per percentile, the legend naming each run once.
    const latency = app.getByTestId("compare-sweep-size-p99-GET");
    for (const chip of ["p50", "p999"]) {
      await latency.getByTestId(`compare-sweep-size-p99-GET-percentile-${chip}`).click();
    }
    await expect(latency).toHaveAttribute("data-lines", String(2 * 3));
    await expect(latency).toHaveAttribute("data-legend", "2");
    await latency.scrollIntoViewIfNeeded();
    await keepScreenshot(app, "compare-sweep-percentiles");
    await compare.chooseAllPointsMetric("p50Ms");
    await expectRows("p50");

    // A row opens its point and phase in the table above.
    const chosen = compare.allPoints
      .locator('[data-testid="compare-all-points-row"][data-op="PUT"]')
      .last();
    await chosen.click();
    await expect(chosen).toHaveAttribute("aria-selected", "true");
    await expect(compare.table).toHaveAttribute("data-op", "PUT");
    await expect(compare.table).toHaveAttribute(
      "data-point",
      (await chosen.getAttribute("data-key"))!,
    );
  });

  test("a run can be renamed and deleted in the library", async ({ app, testbed }) => {
    const endpointId = await addLabServer(app, testbed);
    // Compare before there is anything to compare says how to get there.
    await new ComparePage(app).shell.open("compare");
    await expect(app.getByTestId("compare-empty")).toBeVisible();
    await keepScreenshot(app, "compare-empty");

    const runs = new RunsPage(app);
    await runs.open();
    const runId = await runs.runToCompletion("first try", endpointId, at(4));
    await runs.rename(runId, "Lab 2, MinIO-like server");
    await expect(runs.rowNamed("Lab 2, MinIO-like server")).toBeVisible();
    await runs.remove(runId);
    await expect(app.getByTestId("runs-empty")).toBeVisible();
  });
});
