import type { LivePercentiles } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { useShallow } from "zustand/react/shallow";
import { P999_MIN_REQUESTS, RECENT_WINDOW_SECONDS } from "@taillab/core";
import { formatInteger } from "@taillab/report";
import { formatLatency } from "../../shared/display-format.ts";
import { missingLatencies, shownPhase } from "./live-run-state.ts";
import { useLiveRun } from "./live-run-store.ts";

const TILES: { key: keyof Omit<LivePercentiles, "count">; label: string }[] = [
  { key: "p50Ms", label: "p50" },
  { key: "p90Ms", label: "p90" },
  { key: "p99Ms", label: "p99" },
  { key: "p999Ms", label: "p999" },
  { key: "maxMs", label: "max" },
];
/** A live session's tiles: the chart's own percentiles, big enough beside its knobs. */
const RECENT_TILES = TILES.filter((tile) => ["p50Ms", "p99Ms", "p999Ms"].includes(tile.key));

/**
 * The phase's percentiles as big figures: what a lecture hall reads from the back row. A live
 * session's show its newest seconds: over a session whose knobs moved, the whole phase's would
 * mix every setting it had (a p99 of seconds beside a chart at 30 ms).
 */
export function PercentileTiles() {
  const { t } = useTranslation("live");
  const { percentiles, op, kept, pointIndex, recent } = useLiveRun(
    useShallow((state) => {
      const shown = shownPhase(state);
      const recent = state.tuning !== null;
      return {
        percentiles: (recent ? shown?.recentPercentiles : shown?.percentiles) ?? null,
        op: shown?.progress.op ?? null,
        kept: shown?.kept ?? false,
        pointIndex: shown?.progress.pointIndex ?? 0,
        recent,
      };
    }),
  );
  const pointCount = useLiveRun((state) => state.points.length);
  const missing = useLiveRun(missingLatencies);
  return (
    <section
      className="card"
      data-testid="live-percentiles"
      data-op={op ?? undefined}
      data-kept={kept}
      data-window={recent ? "recent" : "phase"}
      aria-labelledby="live-percentiles-title"
    >
      <header className="card-header">
        <div>
          <h2 id="live-percentiles-title">
            {recent
              ? t("percentiles.titleRecent", { seconds: RECENT_WINDOW_SECONDS })
              : t(kept ? "percentiles.titleKept" : "percentiles.title")}
            {op ? <span className="badge op-badge">{op}</span> : null}
          </h2>
          {kept ? (
            <p className="muted small" data-testid="live-kept-phase">
              {t("kept", { index: pointIndex + 1, count: Math.max(1, pointCount) })}
            </p>
          ) : null}
        </div>
        {percentiles ? (
          <span
            className="muted small"
            data-testid="live-percentiles-count"
            data-requests={percentiles.count}
          >
            {t("percentiles.count", { requests: formatInteger(percentiles.count) })}
          </span>
        ) : null}
      </header>
      {percentiles ? (
        <div className="stat-tiles">
          {(recent ? RECENT_TILES : TILES).map((tile) => (
            <div
              key={tile.key}
              className={`stat tile tile-${tile.label}`}
              data-testid={`live-${tile.label}`}
            >
              <span className="label">{t(`percentiles.${tile.label}`)}</span>
              <span className="value">{formatLatency(percentiles[tile.key])}</span>
              {tile.key === "p999Ms" && percentiles.count < P999_MIN_REQUESTS ? (
                <span className="tile-note" data-testid="live-p999-is-max">
                  {t("percentiles.p999IsMax", { requests: formatInteger(P999_MIN_REQUESTS) })}
                </span>
              ) : null}
            </div>
          ))}
        </div>
      ) : (
        <p className="muted" data-testid="live-percentiles-empty" data-reason={missing}>
          {missing === "failed" || missing === "none"
            ? t(`noLatencies.${missing}`)
            : t("percentiles.waiting")}
        </p>
      )}
    </section>
  );
}
