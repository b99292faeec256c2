import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { CompareView } from "../features/compare/compare-view.tsx";
import { EndpointsView } from "../features/endpoints/endpoints-view.tsx";
import { ExperimentsView } from "../features/experiments/experiments-view.tsx";
import { LiveRunView } from "../features/live-run/live-run-view.tsx";
import { RunDetailView } from "../features/runs/run-detail-view.tsx";
import { RunsView } from "../features/runs/runs-view.tsx";
import { followAddressBar, useNavigation, type Route, type View } from "./navigation-store.ts";
import { SettingsBar } from "./settings-bar.tsx";
import { useSettings } from "./settings-store.ts";

const NAV_ITEMS: { view: View; route: Route }[] = [
  { view: "endpoints", route: { view: "endpoints" } },
  { view: "experiments", route: { view: "experiments" } },
  { view: "live", route: { view: "live" } },
  { view: "runs", route: { view: "runs" } },
  { view: "compare", route: { view: "compare", runIds: [] } },
];

export function App() {
  const { t } = useTranslation();
  const route = useNavigation((state) => state.route);
  const navigate = useNavigation((state) => state.navigate);
  const theme = useSettings((state) => state.theme);
  const projector = useSettings((state) => state.projector);
  const language = useSettings((state) => state.language);

  useEffect(() => followAddressBar(), []);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.dataset.projector = String(projector);
    document.documentElement.lang = language;
  }, [theme, projector, language]);

  const current = route.view === "run" ? "runs" : route.view;
  return (
    <div className="app">
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          TailLab
        </div>
        <nav className="app-nav" aria-label="main">
          {NAV_ITEMS.map((item) => (
            <button
              key={item.view}
              type="button"
              className="nav-item"
              aria-current={current === item.view ? "page" : undefined}
              data-testid={`nav-${item.view}`}
              onClick={() => navigate(item.route)}
            >
              {t(`nav.${item.view}`)}
            </button>
          ))}
        </nav>
        <SettingsBar />
      </header>
      <main className="app-main">
        <CurrentView route={route} />
      </main>
    </div>
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
