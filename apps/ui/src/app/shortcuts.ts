import type { Route, View } from "./navigation-store.ts";

/** The screens Alt+1…5 open, in the nav's order. */
export const SHORTCUT_VIEWS = ["endpoints", "experiments", "live", "runs", "compare"] as const;
export type ShortcutView = (typeof SHORTCUT_VIEWS)[number];

export type Shortcut =
  | { kind: "run" }
  /** `escape`: pressed Escape, which stops a run only on the live screen (see useShortcuts). */
  | { kind: "stop"; escape: boolean }
  | { kind: "go"; view: ShortcutView }
  | { kind: "help" };

export interface KeyPress {
  key: string;
  /** The physical key: Alt+digit types other characters on some layouts (macOS: Alt+1 is ¡). */
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** Focus is in a text box, where Escape and ? belong to the box. */
  typing: boolean;
}

/** Which shortcut a key press is, if any. Pure, so the key map is tested without a DOM. */
export function shortcutOf(press: KeyPress): Shortcut | null {
  const mod = press.ctrlKey || press.metaKey;
  if (mod && !press.altKey && press.key === "Enter") return { kind: "run" };
  if (mod && !press.altKey && press.key === ".") return { kind: "stop", escape: false };
  if (press.altKey && !mod) {
    const digit = /^Digit([1-9])$/.exec(press.code)?.[1];
    const view = digit ? SHORTCUT_VIEWS[Number(digit) - 1] : undefined;
    if (view) return { kind: "go", view };
  }
  if (press.typing || mod || press.altKey) return null;
  if (press.key === "Escape") return { kind: "stop", escape: true };
  if (press.key === "?") return { kind: "help" };
  return null;
}

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color"].includes(
    target.type,
  );
}

/** The modifier the shortcuts use on this machine, as its keyboard labels it. */
export function modKeyLabel(): string {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform)
    ? "⌘"
    : "Ctrl";
}

/** The nav entry a screen belongs to: a run's detail is part of Results. */
export function shortcutView(view: View): ShortcutView {
  return view === "run" ? "runs" : view;
}

/** Where a nav entry (or its Alt+digit) goes: Compare opens with no runs chosen. */
export function routeOfView(view: ShortcutView): Route {
  return view === "compare" ? { view: "compare", runIds: [] } : { view };
}
