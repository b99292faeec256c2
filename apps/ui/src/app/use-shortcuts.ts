import { useEffect } from "react";
import { useExperimentBuilder } from "../features/experiments/experiment-builder-store.ts";
import { isRunActive, useLiveRun } from "../features/live-run/live-run-store.ts";
import { useNavigation } from "./navigation-store.ts";
import { isTyping, routeOfView, shortcutOf, shortcutView, type Shortcut } from "./shortcuts.ts";

/**
 * The app's keyboard shortcuts, on the window. Escape stops a run only on the live screen:
 * elsewhere it closes menus and leaves fields, and a stray press must not end a long run.
 * While a dialog is open the dialog owns the keyboard.
 */
export function useShortcuts({
  dialogOpen,
  openHelp,
}: {
  dialogOpen: boolean;
  openHelp: () => void;
}) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (dialogOpen || event.defaultPrevented) return;
      const shortcut = shortcutOf({
        key: event.key,
        code: event.code,
        altKey: event.altKey,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        typing: isTyping(event.target),
      });
      if (shortcut && perform(shortcut, openHelp)) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [dialogOpen, openHelp]);
}

/** Does what the shortcut says when it applies here; false when it does not (the key passes). */
function perform(shortcut: Shortcut, openHelp: () => void): boolean {
  const { route, navigate } = useNavigation.getState();
  switch (shortcut.kind) {
    case "run": {
      const builder = useExperimentBuilder.getState();
      if (route.view !== "experiments" || !builder.open) return false;
      void builder.run();
      return true;
    }
    case "stop": {
      const live = useLiveRun.getState();
      if (!isRunActive(live) || (shortcut.escape && route.view !== "live")) return false;
      void live.stop();
      return true;
    }
    case "go":
      // Already there: keep the screen as it is (e.g. the runs being compared).
      if (shortcutView(route.view) === shortcut.view) return true;
      navigate(routeOfView(shortcut.view));
      return true;
    case "help":
      openHelp();
      return true;
  }
}
