import { expect, type Locator, type Page } from "@playwright/test";
import { AppShell } from "./app-shell.ts";
import { fieldErrorOf } from "./form-field.ts";

export type Verdict = "ok" | "unreachable" | "credentials" | "bucket" | "error";

export interface EndpointEntry {
  kind?: string;
  name?: string;
  url?: string;
  bucket?: string;
  accessKeyId?: string;
  secret?: string;
}

/** The Endpoints screen: the saved servers as cards, and the form that adds or edits one. */
export class EndpointsPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly view: Locator;
  readonly form: Locator;
  readonly verdict: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.view = page.getByTestId("endpoints-view");
    this.form = page.getByTestId("endpoint-form");
    this.verdict = this.form.getByTestId("connection-verdict");
  }

  async open(): Promise<void> {
    await this.shell.open("endpoints");
    await expect(this.view).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="endpoint-row"][data-name="${name}"]`);
  }

  async startAdd(): Promise<void> {
    await this.page.getByTestId("endpoint-add").click();
    await expect(this.form).toBeVisible();
  }

  input(field: "name" | "url" | "bucket" | "access-key" | "secret"): Locator {
    return this.form.getByTestId(`endpoint-${field}`);
  }

  get kindSelect(): Locator {
    return this.form.getByTestId("endpoint-kind");
  }

  fieldError(field: "name" | "url" | "bucket" | "access-key" | "secret"): Locator {
    return fieldErrorOf(this.input(field));
  }

  /** Fills the form as a user types it; the kind first, since a preset fills in defaults. */
  async fill(entry: EndpointEntry): Promise<void> {
    if (entry.kind !== undefined) await this.kindSelect.selectOption(entry.kind);
    if (entry.name !== undefined) await this.input("name").fill(entry.name);
    if (entry.url !== undefined) await this.input("url").fill(entry.url);
    if (entry.bucket !== undefined) await this.input("bucket").fill(entry.bucket);
    if (entry.accessKeyId !== undefined) await this.input("access-key").fill(entry.accessKeyId);
    if (entry.secret !== undefined) await this.input("secret").fill(entry.secret);
  }

  /** Presses "Test connection" and waits for the verdict; returns it. */
  async testConnection(): Promise<Verdict> {
    await this.form.getByTestId("endpoint-test").click();
    await expect(this.form.getByTestId("connection-pending")).toBeHidden({ timeout: 30_000 });
    await expect(this.verdict).toBeVisible();
    return (await this.verdict.getAttribute("data-verdict")) as Verdict;
  }

  /** Presses the verdict's "Create the bucket" and waits for the verdict that follows. */
  async createBucket(): Promise<Verdict> {
    await this.verdict.getByTestId("create-bucket").click();
    await expect(this.form.getByTestId("connection-pending")).toBeHidden({ timeout: 30_000 });
    await expect(this.verdict).toBeVisible();
    return (await this.verdict.getAttribute("data-verdict")) as Verdict;
  }

  async save(): Promise<void> {
    await this.form.getByTestId("endpoint-save").click();
    await expect(this.form).toBeHidden();
  }

  /** Tests a saved endpoint from its card; returns the verdict shown on the card. */
  async testSaved(name: string): Promise<Verdict> {
    const card = this.row(name);
    await card.getByTestId("endpoint-row-test").click();
    const verdict = card.getByTestId("connection-verdict");
    await expect(verdict).toBeVisible({ timeout: 30_000 });
    return (await verdict.getAttribute("data-verdict")) as Verdict;
  }
}
