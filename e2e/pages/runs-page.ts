import { expect, type Locator, type Page } from "@playwright/test";
import { callApi } from "../support/page-api.ts";
import { AppShell } from "./app-shell.ts";

/** A single-point workload, as a test's set-up runs it. */
export interface SmallSpec {
  clients: number;
  samples: number;
  /** Several sizes make the run a sweep. */
  objectSize: string | string[];
  /** "hedged" or "tied" need a testbed of 2 replicas or more. */
  mode?: "normal" | "hedged" | "tied";
  testbed?: { replicas: number };
}

/** The results library: every stored run, searchable, and the way into detail and compare. */
export class RunsPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly view: Locator;
  readonly table: Locator;
  readonly rows: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.view = page.getByTestId("runs-view");
    this.table = page.getByTestId("runs-table");
    this.rows = page.getByTestId("run-row");
  }

  async open(): Promise<void> {
    await this.shell.open("runs");
    await expect(this.view).toBeVisible();
  }

  row(runId: string): Locator {
    return this.page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
  }

  rowNamed(name: string): Locator {
    return this.page.locator(`[data-testid="run-row"][data-name="${name}"]`);
  }

  /** The tags on a run's row, as its chips show them. */
  async tags(runId: string): Promise<string[]> {
    return this.row(runId)
      .getByTestId("run-tag")
      .evaluateAll((chips) => chips.map((chip) => chip.getAttribute("data-tag") ?? ""));
  }

  async waitForStatus(runId: string, status: string, timeout = 60_000): Promise<void> {
    await expect(this.row(runId)).toHaveAttribute("data-status", status, { timeout });
  }

  /**
   * Starts a run through the page's bridge (set-up, not the story a test tells) and waits until
   * the library, open on screen, lists it complete; returns its id.
   */
  async runToCompletion(name: string, endpointId: string, spec: SmallSpec): Promise<string> {
    const { runId } = await callApi(this.page, "startRun", {
      name,
      experiment: { name, endpointId, spec },
    });
    await this.waitForStatus(runId, "complete");
    return runId;
  }

  async search(text: string): Promise<void> {
    await this.page.getByTestId("runs-search").fill(text);
  }

  async select(runId: string): Promise<void> {
    await this.row(runId).getByTestId("run-select").check();
  }

  async compareSelected(): Promise<void> {
    await this.page.getByTestId("compare-selected").click();
  }

  async openRun(runId: string): Promise<void> {
    await this.row(runId).getByTestId("run-open").click();
  }

  async rename(runId: string, name: string): Promise<void> {
    const row = this.row(runId);
    await row.getByTestId("run-rename").click();
    await row.getByTestId("run-rename-input").fill(name);
    await row.getByTestId("run-rename-save").click();
    await expect(row).toHaveAttribute("data-name", name);
  }

  async remove(runId: string): Promise<void> {
    const row = this.row(runId);
    await row.getByTestId("run-delete").click();
    await row.getByTestId("run-delete-confirm").click();
    await expect(row).toHaveCount(0);
  }
}
