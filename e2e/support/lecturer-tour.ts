import { expect, type Page } from "@playwright/test";
import { AppShell } from "../pages/app-shell.ts";
import { ComparePage } from "../pages/compare-page.ts";
import { LiveRunPage } from "../pages/live-run-page.ts";
import { TailGuidePage } from "../pages/tail-guide-page.ts";

/** The lab's three runs on a busy machine (load 40 missed a 150 s wait with two labs at once). */
const LAB_RUNS_TIMEOUT_MS = 150_000;

/**
 * A lecturer's walk through the tail-latency lab's guide, from the app's first screen to the
 * conclusion drawn from the class's own runs: the legs a person takes, each only the clicks they
 * make and the waits for what they would wait on. The lecturer-journey spec checks the screens
 * between the legs; `pnpm bench ui` counts the clicks and times the whole walk.
 */
export class LecturerTour {
  readonly guide: TailGuidePage;
  private readonly shell: AppShell;
  private readonly page: Page;

  constructor(page: Page) {
    this.page = page;
    this.guide = new TailGuidePage(page);
    this.shell = new AppShell(page);
  }

  /** The Experiments screen (the app's first) → the guide, at its first step. */
  async openGuide(): Promise<void> {
    await this.guide.open();
    await this.guide.expectStep("why");
  }

  /** On to the guide's Run step, and Run: the lab's three runs start on the live screen. */
  async runLab(): Promise<void> {
    await this.guide.goTo("run");
    await this.guide.runLab();
  }

  /** The class watches the three runs to their end, then goes back to the guide's Run step. */
  async watchRuns(): Promise<void> {
    const live = new LiveRunPage(this.page);
    await expect(live.compareModesButton).toBeVisible({ timeout: LAB_RUNS_TIMEOUT_MS });
    await live.waitForStatus("complete");
    await this.shell.open("experiments");
    await this.guide.expectStep("run");
  }

  /** On to the guide's Compare step, and Compare modes: the three runs side by side. */
  async compareModes(): Promise<ComparePage> {
    await this.guide.goTo("compare");
    await this.guide.compareModes();
    const compare = new ComparePage(this.page);
    await compare.waitLoaded(3);
    return compare;
  }

  /** Back to the guide, on to its conclusion from the runs' own numbers. */
  async conclude(): Promise<void> {
    await this.shell.open("experiments");
    await this.guide.expectStep("compare");
    await this.guide.goTo("conclusion");
    await expect(this.guide.conclusion).toBeVisible();
  }
}
