import { cleanup, render } from "@testing-library/react";
import i18next from "i18next";
import type { ReactElement } from "react";
import { afterEach } from "vitest";
import { initI18n } from "../../app/i18n.ts";

// Tests run without vitest globals, so Testing Library cannot register its own clean-up.
afterEach(() => {
  cleanup();
  delete window.taillab;
});

if (!i18next.isInitialized) initI18n();

/** Renders with the app's English texts, as the user sees them by default. */
export function renderUi(element: ReactElement) {
  return render(element);
}
