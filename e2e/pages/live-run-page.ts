import { expect, type Locator, type Page } from "@playwright/test";
import { AppShell } from "./app-shell.ts";

/** Where a shard of a distributed run is, as its square on the live screen says. */
export type ShardState = "waiting" | "ready" | "running" | "done" | "failed";

export type LiveStatus =
  "idle" | "starting" | "running" | "complete" | "stopped" | "failed" | "interrupted";

/** The Live run screen: progress, percentiles and the latency timeline of the run going on. */
export class LiveRunPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly view: Locator;
  readonly status: Locator;
  readonly progress: Locator;
  readonly percentiles: Locator;
  readonly timeline: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.view = page.getByTestId("live-run-view");
    this.status = page.getByTestId("live-status");
    this.progress = page.getByTestId("live-progress");
    this.percentiles = page.getByTestId("live-percentiles");
    this.timeline = page.getByTestId("live-timeline");
  }

  async open(): Promise<void> {
    await this.shell.open("live");
    await expect(this.view).toBeVisible();
  }

  /** A distributed run's shards panel; data-job is its Job's state (running, Complete, Failed). */
  get shards(): Locator {
    return this.page.getByTestId("live-shards");
  }

  /**
   * From now on, notes every state each shard's square shows, however briefly (a shard may pass
   * the barrier between two looks of a test); read them with shardStatesSeen.
   */
  async recordShardStates(): Promise<void> {
    await this.page.evaluate(() => {
      const seen: string[][] = [];
      const note = () => {
        document.querySelectorAll<HTMLElement>('[data-testid="live-shard"]').forEach((cell, at) => {
          const states = (seen[at] ??= []);
          const state = cell.dataset.state ?? "";
          if (states.at(-1) !== state) states.push(state);
        });
      };
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ["data-state"],
      });
      (window as unknown as { shardStatesSeen: string[][] }).shardStatesSeen = seen;
    });
  }

  /** Each shard's states, in the order its square showed them, since recordShardStates. */
  async shardStatesSeen(): Promise<ShardState[][]> {
    return this.page.evaluate(
      () => (window as unknown as { shardStatesSeen: ShardState[][] }).shardStatesSeen,
    );
  }

  async currentStatus(): Promise<LiveStatus> {
    return (await this.status.getAttribute("data-status")) as LiveStatus;
  }

  /** Requests done so far and in all, from the progress card's data attributes. */
  async progressFigures(): Promise<{ done: number; total: number }> {
    return {
      done: Number(await this.progress.getAttribute("data-done")),
      total: Number(await this.progress.getAttribute("data-total")),
    };
  }

  /** Waits until more than `done` requests are done; returns the new count. */
  async waitForProgressBeyond(done: number, timeout = 60_000): Promise<number> {
    await expect
      .poll(async () => (await this.progressFigures()).done, { timeout })
      .toBeGreaterThan(done);
    return (await this.progressFigures()).done;
  }

  async waitForStatus(status: LiveStatus | RegExp, timeout = 120_000): Promise<void> {
    await expect(this.status).toHaveAttribute("data-status", status, { timeout });
  }

  /** The phase's percentile tiles are filled in (a number, not "waiting"). */
  async expectPercentilesShown(): Promise<void> {
    await expect(this.percentiles.getByTestId("live-p99")).toBeVisible();
    await expect(this.percentiles.getByTestId("live-p999")).toContainText(/\d/);
  }

  /** How many requests the percentile tiles are from now. */
  async percentilesRequests(): Promise<number> {
    const count = this.percentiles.getByTestId("live-percentiles-count");
    return Number(await count.getAttribute("data-requests"));
  }

  /** Switches the live chart (latency, throughput, data, errors) with the keyboard. */
  async showChart(chart: "latency" | "throughput" | "data" | "errors"): Promise<void> {
    const choice = this.page.getByTestId(`live-chart-${chart}`);
    await choice.focus();
    await this.page.keyboard.press("Space");
    await expect(choice).toHaveAttribute("aria-pressed", "true");
    await expect(this.timeline).toHaveAttribute("data-chart", chart);
  }

  /**
   * What the live chart and the screen say at one moment: the seconds the chart draws and what
   * it counts over them (a rates chart's data-total), the seconds the run has so far, and the
   * requests done.
   */
  async chartFigures(): Promise<{
    seconds: number;
    total: number;
    runSeconds: number;
    done: number;
  }> {
    return this.page.evaluate(() => {
      const chart = document.querySelector<HTMLElement>('[data-testid="live-timeline"]');
      const box = document.querySelector<HTMLElement>(".timeline-box");
      const progress = document.querySelector<HTMLElement>('[data-testid="live-progress"]');
      return {
        seconds: Number(chart?.dataset.seconds),
        total: Number(chart?.dataset.total),
        runSeconds: Number(box?.dataset.intervals),
        done: Number(progress?.dataset.done),
      };
    });
  }

  /**
   * The run's time as the screen shows it at one moment: the elapsed counter (ms, and its text's
   * whole seconds), the nav's seconds and the start of the chart's newest second.
   */
  async clocks(): Promise<{
    elapsedMs: number;
    elapsedText: string;
    navText: string;
    chartLastStartMs: number;
  }> {
    return this.page.evaluate(() => {
      const bar = document.querySelector<HTMLElement>('[data-testid="live-run-progress"]');
      const box = document.querySelector<HTMLElement>(".timeline-box");
      const nav = document.querySelector<HTMLElement>('[data-testid="nav-live-running"]');
      return {
        elapsedMs: Number(bar?.dataset.elapsedMs),
        elapsedText: /(\d+ s)/.exec(bar?.textContent ?? "")?.[1] ?? "",
        navText: nav?.textContent?.trim() ?? "",
        chartLastStartMs: Number(box?.dataset.lastStartMs),
      };
    });
  }

  /** How many timeline buckets the chart draws now. */
  async timelineSeconds(): Promise<number> {
    const box = this.page.locator(".timeline-box", { has: this.timeline });
    return Number(await box.getAttribute("data-intervals"));
  }

  async openResult(): Promise<void> {
    await this.page.getByTestId("open-result").click();
  }

  /** A live session's knobs (the live tail lab). */
  get knobs(): Locator {
    return this.page.getByTestId("live-knobs");
  }

  async setMode(mode: string): Promise<void> {
    await this.page.getByTestId(`knob-mode-${mode}`).click();
    await expect(this.page.getByTestId(`knob-mode-${mode}`)).toHaveAttribute(
      "aria-pressed",
      "true",
    );
  }

  async setReplicas(count: number): Promise<void> {
    await this.page.getByTestId(`knob-replicas-${count}`).click();
  }

  /** Moves a slider to its end with the keyboard, as a hand would; returns the value shown. */
  async sliderToMax(knob: string): Promise<string> {
    return this.moveSlider(knob, "End");
  }

  /** The value a knob shows now. */
  async knobValue(knob: string): Promise<string> {
    return (await this.page.getByTestId(`knob-${knob}-value`).innerText()).trim();
  }

  /**
   * Moves a slider with one key press (ArrowLeft: one step down; PageUp: a tenth of its range
   * up; End: to its maximum); returns the value shown. One press is one change: a hand that
   * pauses mid-move changes the knob at each pause, and so would a series of presses on a busy
   * machine.
   */
  async moveSlider(knob: string, key: string): Promise<string> {
    await this.page.getByTestId(`knob-${knob}`).press(key);
    return this.knobValue(knob);
  }

  /** The knob changes marked on the timeline so far. */
  get markers(): Locator {
    return this.page.getByTestId("live-markers").locator("li");
  }

  /** The last whole second's figures beside the knobs. */
  async lastSecond(): Promise<{
    atMs: number;
    p50Ms: number;
    p99Ms: number;
    p999Ms: number;
    extraPercent: number;
  }> {
    const now = this.page.getByTestId("live-now");
    return {
      atMs: Number(await now.getAttribute("data-at-ms")),
      p50Ms: Number((await now.getAttribute("data-p50-ms")) ?? Number.NaN),
      p99Ms: Number((await now.getAttribute("data-p99-ms")) ?? Number.NaN),
      p999Ms: Number((await now.getAttribute("data-p999-ms")) ?? Number.NaN),
      extraPercent: Number((await now.getAttribute("data-extra-percent")) ?? Number.NaN),
    };
  }

  async stop(): Promise<void> {
    await this.page.getByTestId("live-stop").click();
  }

  get finishedBanner(): Locator {
    return this.page.getByTestId("live-finished");
  }

  get compareModesButton(): Locator {
    return this.page.getByTestId("compare-modes");
  }

  async compareModes(): Promise<void> {
    await this.compareModesButton.click();
  }
}
