import type { LivePercentiles } from "@taillab/api";
import { useTranslation } from "react-i18next";
import { formatInteger } from "@taillab/report";
import { formatLatency } from "../../shared/display-format.ts";
import { useLiveRun } from "./live-run-store.ts";

const TILES: { key: keyof Omit<LivePercentiles, "count">; label: string }[] = [
  { key: "p50Ms", label: "p50" },
  { key: "p90Ms", label: "p90" },
  { key: "p99Ms", label: "p99" },
  { key: "p999Ms", label: "p999" },
  { key: "maxMs", label: "max" },
];

/** The phase's percentiles as big figures: what a lecture hall reads from the back row. */
export function PercentileTiles() {
  const { t } = useTranslation("live");
  const percentiles = useLiveRun((state) => state.percentiles);
  return (
    <section
      className="card"
      data-testid="live-percentiles"
      aria-labelledby="live-percentiles-title"
    >
      <header className="card-header">
        <h2 id="live-percentiles-title">{t("percentiles.title")}</h2>
        {percentiles ? (
          <span className="muted small">
            {t("percentiles.count", { requests: formatInteger(percentiles.count) })}
          </span>
        ) : null}
      </header>
      {percentiles ? (
        <div className="stat-tiles">
          {TILES.map((tile) => (
            <div
              key={tile.key}
              className={`stat tile tile-${tile.label}`}
              data-testid={`live-${tile.label}`}
            >
              <span className="label">{t(`percentiles.${tile.label}`)}</span>
              <span className="value">{formatLatency(percentiles[tile.key])}</span>
            </div>
          ))}
        </div>
      ) : (
        <p className="muted">{t("percentiles.waiting")}</p>
      )}
    </section>
  );
}
