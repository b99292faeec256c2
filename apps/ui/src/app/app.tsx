import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CompareView } from "../features/compare/compare-view.tsx";
import { useEndpoints } from "../features/endpoints/endpoints-store.ts";
import { EndpointsView } from "../features/endpoints/endpoints-view.tsx";
import { ExperimentsView } from "../features/experiments/experiments-view.tsx";
import { seriesProgress } from "../features/live-run/live-run-state.ts";
import { isRunActive, useLiveRun } from "../features/live-run/live-run-store.ts";
import { LiveRunView } from "../features/live-run/live-run-view.tsx";
import { RunDetailView } from "../features/runs/run-detail-view.tsx";
import { RunsView } from "../features/runs/runs-view.tsx";
import { PALETTES } from "@taillab/report";
import { paletteTokens } from "../shared/chart-theme.ts";
import { formatDuration } from "../shared/display-format.ts";
import { hasBackend } from "./api.ts";
import { followAddressBar, useNavigation, type Route } from "./navigation-store.ts";
import { SettingsBar } from "./settings-bar.tsx";
import { useSettings } from "./settings-store.ts";
import { routeOfView, SHORTCUT_VIEWS, shortcutView, type ShortcutView } from "./shortcuts.ts";
import { ShortcutsHelp } from "./shortcuts-help.tsx";
import { useShortcuts } from "./use-shortcuts.ts";

const MAIN_ID = "main";

export function App() {
  const { t } = useTranslation();
  const route = useNavigation((state) => state.route);
  const theme = useSettings((state) => state.theme);
  const projector = useSettings((state) => state.projector);
  const language = useSettings((state) => state.language);
  const [helpOpen, setHelpOpen] = useState(false);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  const connected = hasBackend();

  useEffect(() => followAddressBar(), []);
  useEffect(() => {
    const root = document.documentElement;
    for (const [name, value] of Object.entries(paletteTokens(PALETTES[theme]))) {
      root.style.setProperty(name, value);
    }
    root.dataset.theme = theme;
    root.dataset.projector = String(projector);
    root.lang = language;
  }, [theme, projector, language]);
  // Run events arrive whichever screen is open, so the live screen is current when opened.
  useEffect(() => useLiveRun.getState().connect(), []);
  useEffect(() => {
    if (connected) void useEndpoints.getState().load();
  }, [connected]);
  useShortcuts({ dialogOpen: helpOpen, openHelp });

  return (
    <div className="app" data-testid="app">
      <header className="app-header">
        <button
          type="button"
          className="skip-link"
          data-testid="skip-link"
          onClick={() => document.getElementById(MAIN_ID)?.focus()}
        >
          {t("skipToContent")}
        </button>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          TailLab
        </div>
        <MainNav current={shortcutView(route.view)} />
        <div className="header-tools">
          <SettingsBar />
          <button
            type="button"
            className="ghost help-button"
            data-testid="shortcuts-button"
            title={t("shortcuts.button")}
            aria-label={t("shortcuts.button")}
            onClick={openHelp}
          >
            ?
          </button>
        </div>
      </header>
      {/* Focusable from the skip link only (tabIndex -1): the next Tab reaches the screen's first control. */}
      <main className="app-main" id={MAIN_ID} tabIndex={-1}>
        {connected ? null : (
          <div className="banner error backend-banner" role="alert" data-testid="backend-missing">
            <strong>{t("backendMissing")}</strong>
            <span>{t("backendMissingDetail")}</span>
          </div>
        )}
        <CurrentView route={route} />
      </main>
      {helpOpen ? <ShortcutsHelp onClose={() => setHelpOpen(false)} /> : null}
    </div>
  );
}

function MainNav({ current }: { current: ShortcutView }) {
  const { t } = useTranslation();
  const navigate = useNavigation((state) => state.navigate);
  return (
    <nav className="app-nav" aria-label={t("nav.label")}>
      {SHORTCUT_VIEWS.map((view, index) => (
        <button
          key={view}
          type="button"
          className="nav-item"
          aria-current={current === view ? "page" : undefined}
          data-testid={`nav-${view}`}
          title={`Alt+${index + 1}`}
          onClick={() => navigate(routeOfView(view))}
        >
          {t(`nav.${view}`)}
          {view === "live" ? <LiveIndicator /> : null}
        </button>
      ))}
    </nav>
  );
}

/**
 * A dot (still: a pulse would repaint the page every frame of the run) and the percentage done
 * while a run goes on, seen from any screen; for a run with no end (the live lab until stopped),
 * the time it has run instead.
 */
function LiveIndicator() {
  const { t } = useTranslation();
  const active = useLiveRun(isRunActive);
  const percent = useLiveRun((state) => Math.floor(seriesProgress(state).fraction * 100));
  const endless = useLiveRun((state) => seriesProgress(state).total === 0);
  // Whole seconds, so the nav re-renders once a second, not at every event.
  const elapsed = useLiveRun((state) => formatDuration(seriesProgress(state).elapsedMs));
  const shown = endless ? elapsed : `${percent}%`;
  useEffect(() => {
    document.title = active ? `${shown} · TailLab` : "TailLab";
  }, [active, shown]);
  if (!active) return null;
  return (
    <span
      className="live-indicator"
      data-testid="nav-live-running"
      data-endless={endless}
      title={endless ? t("nav.runningFor", { duration: elapsed }) : t("nav.running", { percent })}
    >
      <span className="live-dot" aria-hidden="true" />
      <span className="live-percent">{shown}</span>
    </span>
  );
}

function CurrentView({ route }: { route: Route }) {
  switch (route.view) {
    case "endpoints":
      return <EndpointsView />;
    case "experiments":
      return <ExperimentsView />;
    case "live":
      return <LiveRunView />;
    case "runs":
      return <RunsView />;
    case "run":
      return <RunDetailView runId={route.runId} />;
    case "compare":
      return <CompareView runIds={route.runIds} />;
  }
}
