import type { Locator, Page } from "@playwright/test";

export type MainView = "endpoints" | "experiments" | "live" | "runs" | "compare";
export type Language = "en" | "zh-CN";

/** What every screen shares: the main navigation and the settings bar (language, theme, projector). */
export class AppShell {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  nav(view: MainView): Locator {
    return this.page.getByTestId(`nav-${view}`);
  }

  async open(view: MainView): Promise<void> {
    await this.nav(view).click();
  }

  /** The navigation's labels, in order, as the user reads them. */
  async navTexts(): Promise<string[]> {
    const views: MainView[] = ["endpoints", "experiments", "live", "runs", "compare"];
    return Promise.all(views.map(async (view) => (await this.nav(view).innerText()).trim()));
  }

  get languageSelect(): Locator {
    return this.page.getByTestId("language");
  }

  async setLanguage(language: Language): Promise<void> {
    await this.languageSelect.selectOption(language);
  }

  get themeButton(): Locator {
    return this.page.getByTestId("theme");
  }

  get projectorButton(): Locator {
    return this.page.getByTestId("projector");
  }

  /** The theme the page is drawn in, from <html data-theme>. */
  async theme(): Promise<string | null> {
    return this.page.locator("html").getAttribute("data-theme");
  }

  async projector(): Promise<boolean> {
    return (await this.page.locator("html").getAttribute("data-projector")) === "true";
  }

  async useDarkTheme(): Promise<void> {
    if ((await this.theme()) !== "dark") await this.themeButton.click();
  }

  async setProjector(on: boolean): Promise<void> {
    if ((await this.projector()) !== on) await this.projectorButton.click();
  }
}
