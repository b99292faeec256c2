import { expect, type Locator, type Page } from "@playwright/test";
import { downloadFrom, type DownloadedFile } from "../support/downloads.ts";
import { AppShell } from "./app-shell.ts";

export type RunExport = "csv" | "csv-requests" | "json" | "html";
/** One row of a merged run's shard breakdown: a shard's figures for one operation. */
export interface ShardRowFigures {
  shard: number;
  status: string;
  op: string;
  requests: number;
}

export type RunChart = "timeline-chart" | "histogram-chart" | "cdf-chart" | "ladder-chart";

/** One stored run: its results table, tail charts and exports. */
export class RunDetailPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly view: Locator;
  readonly resultsTable: Locator;
  readonly resultRows: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.view = page.getByTestId("run-detail");
    this.resultsTable = page.getByTestId("results-table");
    this.resultRows = this.resultsTable.getByTestId("result-row");
  }

  /** Waits until the run is loaded (its figures drawn, not the loading card). */
  async waitLoaded(runId?: string): Promise<void> {
    await expect(this.view).toHaveAttribute("data-status", /.+/);
    if (runId) await expect(this.view).toHaveAttribute("data-run-id", runId);
    await expect(this.resultsTable).toBeVisible();
  }

  /** Requests per operation, as the results table's rows (merged ones, for a distributed run). */
  async requestsByOp(): Promise<Record<string, number>> {
    const rows = await this.resultRows.evaluateAll((cells) =>
      cells.map((row) => [row.getAttribute("data-op") ?? "", row.getAttribute("data-requests")]),
    );
    return Object.fromEntries(rows.map(([op, requests]) => [op, Number(requests)]));
  }

  /** A distributed run's card of shards, beside the merged figures. */
  get shardBreakdown(): Locator {
    return this.page.getByTestId("shard-breakdown");
  }

  async shardRows(): Promise<ShardRowFigures[]> {
    await expect(this.shardBreakdown).toBeVisible();
    return this.shardBreakdown.getByTestId("shard-row").evaluateAll((rows) =>
      rows.map((row) => ({
        shard: Number(row.getAttribute("data-shard")),
        status: row.getAttribute("data-status") ?? "",
        op: row.getAttribute("data-op") ?? "",
        requests: Number(row.getAttribute("data-requests")),
      })),
    );
  }

  /** How many run points the results table shows (rows are points × phases). */
  async pointCount(): Promise<number> {
    const indexes = await this.resultRows.evaluateAll((rows) =>
      rows.map((row) => row.getAttribute("data-point-index")),
    );
    return new Set(indexes).size;
  }

  chart(name: RunChart): Locator {
    return this.page.getByTestId(name);
  }

  /** A chart is there with its canvas laid out (not a zero-sized box). */
  async expectChartDrawn(name: RunChart): Promise<void> {
    const canvas = this.chart(name).locator("canvas");
    await expect(canvas).toBeVisible();
    const box = await canvas.boundingBox();
    expect(box?.width ?? 0, `${name} has a width`).toBeGreaterThan(50);
    expect(box?.height ?? 0, `${name} has a height`).toBeGreaterThan(50);
  }

  /**
   * The mean brightness (0–255) of a chart's neutral ink, read from its canvas: the grey pixels
   * of its grid, axes and labels (the coloured series left out). It follows the theme's tokens.
   */
  async chartInkBrightness(name: RunChart): Promise<number> {
    const canvas = this.chart(name).locator("canvas");
    await expect(canvas).toBeVisible();
    return canvas.evaluate(async (element: HTMLCanvasElement) => {
      // Chart.js redraws on the frame after a change: read what is on screen after it.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const context = element.getContext("2d");
      if (!context) return NaN;
      const { data } = context.getImageData(0, 0, element.width, element.height);
      let sum = 0;
      let count = 0;
      for (let index = 0; index < data.length; index += 4) {
        const [red = 0, green = 0, blue = 0, alpha = 0] = data.subarray(index, index + 4);
        if (alpha < 200) continue;
        if (Math.max(red, green, blue) - Math.min(red, green, blue) > 24) continue;
        sum += 0.299 * red + 0.587 * green + 0.114 * blue;
        count += 1;
      }
      return count === 0 ? NaN : sum / count;
    });
  }

  /** Presses "Copy table as text" and returns what reached the clipboard. */
  async copyTable(): Promise<string> {
    const button = this.page.getByTestId("copy-table");
    await button.click();
    await expect(button).toHaveAttribute("data-copied", "true");
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** Downloads a chart as a PNG picture or an SVG drawing. */
  async downloadChart(name: RunChart, format: "png" | "svg"): Promise<DownloadedFile> {
    return downloadFrom(this.page, this.page.getByTestId(`${name}-${format}`));
  }

  /** "Run again": the same spec on the same endpoint, which opens the live screen. */
  async runAgain(): Promise<void> {
    await this.page.getByTestId("run-again").click();
  }

  /** "Edit and run": the run's settings in the builder, to change before running them. */
  async editAndRun(): Promise<void> {
    await this.page.getByTestId("run-edit").click();
  }

  get experimentLink(): Locator {
    return this.page.getByTestId("run-experiment");
  }

  async export(kind: RunExport): Promise<DownloadedFile> {
    return downloadFrom(this.page, this.page.getByTestId(`export-${kind}`));
  }
}
