import { expect, type Locator, type Page } from "@playwright/test";
import { downloadFrom, type DownloadedFile } from "../support/downloads.ts";
import { AppShell } from "./app-shell.ts";

/** A row of the compare table, as its data-* attributes state it. */
export interface CompareRowFigures {
  runId: string;
  present: boolean;
  clients: number;
  /** The point parameters in which the run differs from the baseline. */
  differs: string[];
  p999Ms: number;
}

/** A row of the all-points table: a point and phase, each run's figure and its ratio. */
export interface AllPointsRow {
  key: string;
  op: string;
  sizeBytes: number;
  /** Each run's figure, in the runs' order (NaN where a run lacks the point). */
  values: number[];
  /** Each run's figure against the baseline's (NaN for the baseline and a missing one). */
  ratios: number[];
}

export interface ModeFigures {
  mode: string;
  p999Ms: number;
  extraPercent: number;
  /** Requests the embedded testbed served in the run; NaN when not shown. */
  served: number;
}

/** Several runs side by side: the compare table, the ladder chart and, across modes, their cost. */
export class ComparePage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly view: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly ladder: Locator;
  /** Every point × phase against the baseline, in one figure at a time. */
  readonly allPoints: Locator;
  readonly modeComparison: Locator;
  /** Shown when some run shares no point with the baseline and is paired in order. */
  readonly pairedNote: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.view = page.getByTestId("compare-view");
    this.table = page.getByTestId("compare-table");
    this.rows = this.table.getByTestId("compare-row");
    this.ladder = page.getByTestId("compare-ladder-chart");
    this.allPoints = page.getByTestId("compare-all-points");
    this.modeComparison = page.getByTestId("mode-comparison");
    this.pairedNote = page.getByTestId("compare-paired-note");
  }

  /** Waits until the runs in the address are loaded and compared. */
  async waitLoaded(runCount: number): Promise<void> {
    await expect(this.view).toBeVisible();
    await expect(this.rows).toHaveCount(runCount);
  }

  async comparedRunIds(): Promise<string[]> {
    return this.rows.evaluateAll((rows) =>
      rows.map((row) => row.getAttribute("data-run-id") ?? ""),
    );
  }

  async rowFigures(): Promise<CompareRowFigures[]> {
    return this.rows.evaluateAll((rows) =>
      rows.map((row) => ({
        runId: row.getAttribute("data-run-id") ?? "",
        present: row.getAttribute("data-present") === "true",
        clients: Number(row.getAttribute("data-clients")),
        differs: (row.getAttribute("data-differs") ?? "").split(",").filter(Boolean),
        p999Ms: Number(row.getAttribute("data-p999-ms")),
      })),
    );
  }

  async allPointsRows(): Promise<AllPointsRow[]> {
    return this.allPoints.getByTestId("compare-all-points-row").evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.querySelectorAll("td")].slice(2);
        const figure = (cell: Element, name: string) =>
          Number(cell.getAttribute(name) ?? Number.NaN);
        return {
          key: row.getAttribute("data-key") ?? "",
          op: row.getAttribute("data-op") ?? "",
          sizeBytes: Number(row.getAttribute("data-size-bytes")),
          values: cells.map((cell) => figure(cell, "data-value")),
          ratios: cells.map((cell) => figure(cell, "data-ratio")),
        };
      }),
    );
  }

  /** Shows another figure in the all-points table. */
  async chooseAllPointsMetric(metric: string): Promise<void> {
    await this.allPoints.getByTestId("compare-all-points-metric").selectOption(metric);
    await expect(this.allPoints).toHaveAttribute("data-metric", metric);
  }

  /** Each mode's p99.9 and backup cost, from the mode comparison's rows. */
  async modeFigures(): Promise<ModeFigures[]> {
    await expect(this.modeComparison).toBeVisible();
    return this.modeComparison.getByTestId("mode-row").evaluateAll((rows) =>
      rows.map((row) => ({
        mode: row.getAttribute("data-mode") ?? "",
        p999Ms: Number(row.getAttribute("data-p999-ms")),
        extraPercent: Number(row.getAttribute("data-extra-percent")),
        served: Number(row.getAttribute("data-served") ?? Number.NaN),
      })),
    );
  }

  async export(kind: "csv" | "json" | "html"): Promise<DownloadedFile> {
    return downloadFrom(this.page, this.page.getByTestId(`compare-export-${kind}`));
  }
}
