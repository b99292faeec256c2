import { pointsRan } from "@taillab/core";
import type { RunDetail, RunSummary } from "@taillab/api";
import { formatInteger } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { LeftoversBanner } from "./leftovers-banner.tsx";
import { ServerLostBanner } from "./server-lost-banner.tsx";

/**
 * Why a run's figures may not be the whole story (interrupted, failed, stopped early, damaged),
 * and what it may have left on its server.
 */
export function RunBanners({ detail }: { detail: RunDetail }) {
  const { t } = useTranslation("runs");
  const { meta, summary, damage } = detail;
  return (
    <>
      {damage ? (
        <div className="banner error" role="status" data-testid="damaged-banner">
          <strong>{t("banners.damagedTitle")}</strong> {t("banners.damaged")}
          <ul>
            {damage.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {meta.status === "interrupted" ? (
        <div className="banner warning" role="status" data-testid="interrupted-banner">
          <strong>{t("banners.interruptedTitle")}</strong> {t("banners.interrupted")}
        </div>
      ) : null}
      {meta.status === "failed" ? (
        <div className="banner error" role="status" data-testid="failed-banner">
          <strong>{t("banners.failedTitle")}</strong>{" "}
          {/* The failure as the engine or the server worded it, quoted rather than translated. */}
          {meta.error === null ? (
            t("banners.failedUnknown")
          ) : (
            <span translate="no" data-testid="failed-reason">
              {meta.error}
            </span>
          )}
        </div>
      ) : null}
      {meta.status === "running" ? (
        <div className="banner" role="status" data-testid="running-banner">
          {t("banners.running")}
        </div>
      ) : null}
      <ServerLostBanner summary={summary} />
      <LeftoversBanner detail={detail} />
      {/* An interrupted run stopped early by definition: its own banner says more. */}
      {summary.status === "stopped" && meta.status !== "interrupted" ? (
        <div
          className="banner warning"
          role="status"
          data-testid="stopped-banner"
          data-points-ran={pointsRan(summary.points)}
          data-point-count={summary.pointCount}
        >
          {pointsRan(summary.points) === 0
            ? t("banners.stoppedBeforeFirst")
            : summary.pointCount > 1
              ? t("banners.stoppedInPoint", {
                  ran: pointsRan(summary.points),
                  count: summary.pointCount,
                  finished: summary.points.filter((point) => point.finished).length,
                })
              : t("banners.stopped")}
          {cutOffRequests(summary) > 0
            ? ` ${t("banners.cutOff", { requests: formatInteger(cutOffRequests(summary)) })}`
            : null}
        </div>
      ) : null}
    </>
  );
}

/** Requests the stop cut off in flight, over the run's phases (PhaseSummary.cutOff). */
function cutOffRequests(summary: RunSummary): number {
  return summary.points
    .flatMap((point) => point.phases)
    .reduce((sum, phase) => sum + (phase.cutOff ?? 0), 0);
}
