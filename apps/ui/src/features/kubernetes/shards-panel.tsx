import { useTranslation } from "react-i18next";
import { useLiveRun } from "../live-run/live-run-store.ts";
import { shardStates } from "./shards-status.ts";

/**
 * A distributed run's shards on the live screen: pods as they become ready, shards at the start
 * barrier, running, done or failed, one square each. The figures above are merged from them.
 */
export function ShardsPanel() {
  const { t } = useTranslation("kubernetes");
  const status = useLiveRun((state) => state.shards);
  if (!status) return null;
  const states = shardStates(status);
  return (
    <section className="card section" data-testid="live-shards" data-job={status.job}>
      <h2>
        {t("shards.title")} <span className="badge">{t(`shards.job.${status.job}`)}</span>
      </h2>
      <p data-testid="live-shards-summary">
        {t("shards.summary", {
          ready: status.podsReady,
          count: status.shardCount,
          barrier: status.ready.length,
          running: status.running.length,
          done: status.done.length,
          failed: status.failed.length,
        })}
      </p>
      {status.message ? (
        <p className="muted" data-testid="live-shards-message">
          {t("shards.jobSays")} {/* The Job's own words, quoted as Kubernetes wrote them. */}
          <span translate="no">{status.message}</span>
        </p>
      ) : null}
      <ul className="shard-grid" aria-label={t("shards.title")}>
        {states.map((state, index) => (
          <li
            key={index}
            className={`shard-cell shard-${state}`}
            data-testid="live-shard"
            data-state={state}
            title={t("shards.shard", { index, state: t(`shards.state.${state}`) })}
          >
            {index}
          </li>
        ))}
      </ul>
    </section>
  );
}
