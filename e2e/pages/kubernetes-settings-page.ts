import { expect, type Locator, type Page } from "@playwright/test";
import { fieldErrorOf } from "./form-field.ts";

export type KubernetesSetting = "kubeconfig" | "context" | "namespace" | "image";

/** The Kubernetes settings dialog, opened from the settings bar: where distributed runs go. */
export class KubernetesSettingsPage {
  readonly page: Page;
  readonly dialog: Locator;

  constructor(page: Page) {
    this.page = page;
    this.dialog = page.getByTestId("kubernetes-settings");
  }

  async open(): Promise<void> {
    await this.page.getByTestId("kubernetes-settings-button").click();
    await expect(this.dialog).toBeVisible();
  }

  input(field: KubernetesSetting): Locator {
    return this.dialog.getByTestId(`kubernetes-${field}`);
  }

  fieldError(field: KubernetesSetting): Locator {
    return fieldErrorOf(this.input(field));
  }

  async fill(values: Partial<Record<KubernetesSetting, string>>): Promise<void> {
    for (const [field, value] of Object.entries(values) as [KubernetesSetting, string][]) {
      await this.input(field).fill(value);
    }
  }

  /** Presses Save; the dialog stays open when a value is refused. */
  async pressSave(): Promise<void> {
    await this.dialog.getByTestId("kubernetes-settings-save").click();
  }

  /** Closes the dialog without saving, as Escape does. */
  async close(): Promise<void> {
    await this.dialog.press("Escape");
    await expect(this.dialog).toBeHidden();
  }

  /** Saves and waits until the dialog has closed on the saved settings. */
  async save(): Promise<void> {
    await this.pressSave();
    await expect(this.dialog).toBeHidden();
  }
}
