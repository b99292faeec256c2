import { expect, type Locator, type Page } from "@playwright/test";

/** The tail-latency lab's walkthrough on the Experiments screen. */
export class TailGuidePage {
  readonly page: Page;
  readonly guide: Locator;
  readonly conclusion: Locator;

  constructor(page: Page) {
    this.page = page;
    this.guide = page.getByTestId("tail-guide");
    this.conclusion = page.getByTestId("tail-guide-conclusion");
  }

  async open(): Promise<void> {
    await this.page.getByTestId("tail-guide-open").click();
    await expect(this.guide).toBeVisible();
  }

  /** Next until the guide shows `step`. */
  async goTo(step: string): Promise<void> {
    while ((await this.guide.getAttribute("data-step")) !== step) {
      await this.page.getByTestId("tail-guide-next").click();
    }
  }

  async expectStep(step: string): Promise<void> {
    await expect(this.guide).toHaveAttribute("data-step", step);
  }

  async runLab(): Promise<void> {
    await this.page.getByTestId("tail-guide-run").click();
  }

  async compareModes(): Promise<void> {
    await this.page.getByTestId("tail-guide-compare").click();
  }
}
