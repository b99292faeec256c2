import type { Locator } from "@playwright/test";

/**
 * The labelled field around a control (its <label class="field"> or <fieldset class="field">),
 * where the form shows that field's hint or error.
 */
function fieldAround(control: Locator): Locator {
  return control.locator(
    "xpath=ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' field ')][1]",
  );
}

/** The error shown at a control's field (empty when the field is fine). */
export function fieldErrorOf(control: Locator): Locator {
  return fieldAround(control).locator(".field-error");
}
