import { useTranslation } from "react-i18next";
import { useNavigation } from "../../app/navigation-store.ts";
import { PageHeader } from "../../shared/page-header.tsx";
import { ShardsPanel } from "../kubernetes/shards-panel.tsx";
import { ClientBanner } from "./client-banner.tsx";
import { FinishedBanner } from "./finished-banner.tsx";
import { LiveHeader } from "./live-header.tsx";
import { LiveKnobs } from "./live-knobs.tsx";
import { LiveMarkers } from "./live-markers.tsx";
import { LiveProgress } from "./live-progress.tsx";
import { isRunActive, useLiveRun } from "./live-run-store.ts";
import { LiveTimeline } from "./live-timeline.tsx";
import { NoticeList } from "./notice-list.tsx";
import { PercentileTiles } from "./percentile-tiles.tsx";

/**
 * The run as it happens. Each part follows only its own slice of the store, so a progress event
 * re-renders the progress, the tiles and the chart, never the whole screen.
 */
export function LiveRunView() {
  const idle = useLiveRun((state) => state.status === "idle");
  // The live tail lab while its knobs move: knobs beside what they move, one projected screen.
  const lab = useLiveRun((state) => state.tuning !== null && isRunActive(state));
  if (idle) return <NoRun />;
  return (
    <section className="view live-view" data-testid="live-run-view">
      <LiveHeader />
      <FinishedBanner />
      <ClientBanner />
      <LiveProgress />
      {lab ? (
        <div className="live-lab" data-testid="live-lab">
          <div className="live-lab-controls">
            <LiveKnobs />
            <LiveMarkers />
          </div>
          <div className="live-lab-watch">
            <PercentileTiles />
            <LiveTimeline markersBeside />
          </div>
        </div>
      ) : (
        <>
          <ShardsPanel />
          <PercentileTiles />
          <LiveTimeline />
        </>
      )}
      <NoticeList />
    </section>
  );
}

function NoRun() {
  const { t } = useTranslation("live");
  const navigate = useNavigation((state) => state.navigate);
  return (
    <section className="view" data-testid="live-run-view">
      <PageHeader title={t("title")} />
      <div className="card empty-state" data-testid="live-empty">
        <span className="visually-hidden" data-testid="live-status" data-status="idle" />
        <h2>{t("empty.title")}</h2>
        <p>{t("empty.text")}</p>
        <button type="button" className="primary" onClick={() => navigate({ view: "experiments" })}>
          {t("empty.action")}
        </button>
      </div>
    </section>
  );
}
