import { expect, type Locator, type Page } from "@playwright/test";
import { AppShell } from "./app-shell.ts";
import { fieldErrorOf } from "./form-field.ts";

export type BuilderField = "name" | "clients" | "samples" | "sizes";

export interface SweepPreviewFigures {
  points: number;
  requests: number;
}

/** The Experiments screen: the list (built-in labs and saved ones) and the builder. */
export class ExperimentsPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly list: Locator;
  readonly builder: Locator;
  readonly preview: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.list = page.getByTestId("experiments-view");
    this.builder = page.getByTestId("experiment-builder");
    this.preview = page.getByTestId("sweep-preview");
  }

  async open(): Promise<void> {
    await this.shell.open("experiments");
    await expect(this.list.or(this.builder)).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="experiment-row"][data-name="${name}"]`);
  }

  /** Runs a listed experiment (a built-in lab or a saved one) straight from the list. */
  async runFromList(name: string): Promise<void> {
    await this.row(name).getByTestId("experiment-row-run").click();
  }

  async newExperiment(): Promise<void> {
    await this.page.getByTestId("experiment-new").click();
    await expect(this.builder).toBeVisible();
  }

  input(field: BuilderField): Locator {
    return this.builder.getByTestId(`experiment-${field}`);
  }

  fieldError(field: BuilderField): Locator {
    return fieldErrorOf(this.input(field));
  }

  get endpointSelect(): Locator {
    return this.builder.getByTestId("experiment-endpoint");
  }

  /** Chooses a saved endpoint by its name, as the list shows it ("NAME · KIND"). */
  async chooseEndpoint(name: string): Promise<void> {
    const option = this.endpointSelect.locator("option", { hasText: name });
    await this.endpointSelect.selectOption((await option.getAttribute("value")) ?? "");
  }

  /** Load generators: N pods on Kubernetes, where the Kubernetes settings send them. */
  async useKubernetesPods(shards: number): Promise<void> {
    const generators = this.builder.getByTestId("load-generators");
    await generators.getByTestId("load-generators-kubernetes").check();
    await generators.getByTestId("load-generators-shards").fill(String(shards));
  }

  async fill(values: Partial<Record<BuilderField, string>>): Promise<void> {
    for (const [field, value] of Object.entries(values) as [BuilderField, string][]) {
      await this.input(field).fill(value);
    }
  }

  /** Waits until the preview has caught up with the form and shows what it would run. */
  async previewFigures(): Promise<SweepPreviewFigures> {
    await expect(this.preview).toHaveAttribute("data-state", "ok");
    return {
      points: Number(await this.preview.getAttribute("data-points")),
      requests: Number(await this.preview.getAttribute("data-requests")),
    };
  }

  /** Waits until the preview says the draft cannot run as typed. */
  async expectPreviewInvalid(): Promise<void> {
    await expect(this.preview).toHaveAttribute("data-state", /invalid|failed/);
  }

  async save(): Promise<void> {
    await this.builder.getByTestId("experiment-save").click();
    await expect(this.builder.getByTestId("experiment-saved")).toBeVisible();
  }

  async run(): Promise<void> {
    await this.builder.getByTestId("experiment-run").click();
  }

  get error(): Locator {
    return this.builder.getByTestId("experiment-error");
  }
}
