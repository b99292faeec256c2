import type { ShardBreakdown, RunSummary } from "@taillab/api";
import { clockIsOff } from "@taillab/core";
import { formatFixed, formatInteger, formatMs } from "@taillab/report";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

const signedMs = (ms: number | null, digits: number) =>
  ms === null ? "—" : `${ms >= 0 ? "+" : ""}${formatFixed(ms, digits)} ms`;

/**
 * A merged run's shards beside its merged figures: each one's start against T0, its clock
 * against the server's, and its own requests, throughput and p99 per operation, so a slow shard
 * shows and its requests add up to the merged ones; a missing or failed shard says why.
 */
export function ShardBreakdownCard({ summary }: { summary: RunSummary }) {
  const { t } = useTranslation("kubernetes");
  const distributed = summary.distributed;
  if (!distributed) return null;
  const skew =
    distributed.clockSkewMs === null
      ? "—"
      : `${formatFixed(distributed.clockSkewMs, 0)} ± ${formatFixed(distributed.clockSkewBoundMs ?? 0, 0)} ms`;
  return (
    <section className="card section" data-testid="shard-breakdown">
      <h2>{t("breakdown.title")}</h2>
      <p className="muted">{t("breakdown.intro")}</p>
      <p data-testid="shard-breakdown-header">
        {t("breakdown.header", {
          merged: distributed.merged.length,
          count: distributed.shardCount,
          spread:
            distributed.startSpreadMs === null
              ? "—"
              : `${formatFixed(distributed.startSpreadMs, 3)} ms`,
          skew,
        })}
      </p>
      {distributed.clocksApart ? (
        <p className="banner warning" data-testid="shard-clocks-apart">
          {t("breakdown.clocksApart", {
            behind: distributed.clocksApart.shards[0],
            ahead: distributed.clocksApart.shards[1],
            apart: formatFixed(distributed.clocksApart.apartMs / 1000, 1),
            bound: formatFixed(distributed.clocksApart.boundMs / 1000, 2),
          })}
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              <th>{t("breakdown.shard")}</th>
              <th>{t("breakdown.status")}</th>
              <th className="number">{t("breakdown.start")}</th>
              <th className="number">{t("breakdown.clock")}</th>
              <th>{t("breakdown.op")}</th>
              <th className="number">{t("breakdown.requests")}</th>
              <th className="number">{t("breakdown.opsPerSec")}</th>
              <th className="number">{t("breakdown.p99")}</th>
              <th className="number">{t("breakdown.errors")}</th>
              <th>{t("breakdown.problem")}</th>
            </tr>
          </thead>
          <tbody>
            {distributed.shards.flatMap((shard) => {
              const phases = shard.points.flatMap((point) => point.phases);
              const rows = phases.length > 0 ? phases : [null];
              return rows.map((phase, row) => (
                <tr
                  key={`${shard.index}-${phase?.op ?? "none"}-${row}`}
                  data-testid="shard-row"
                  data-shard={shard.index}
                  data-status={shard.status}
                  data-op={phase?.op}
                  data-requests={phase?.requests}
                  data-ops-per-sec={phase?.opsPerSec}
                >
                  <td>{row === 0 ? shard.index : ""}</td>
                  <td>{row === 0 ? t(`breakdown.statusName.${shard.status}`) : ""}</td>
                  <td className="number">{row === 0 ? signedMs(shard.startOffsetMs, 3) : ""}</td>
                  <td className="number">
                    {row === 0 && shard.clock ? signedMs(shard.clock.offsetMs, 0) : ""}
                  </td>
                  <td>{phase?.op ?? "—"}</td>
                  <td className="number">{phase ? formatInteger(phase.requests) : "—"}</td>
                  <td className="number">{phase ? formatFixed(phase.opsPerSec, 1) : "—"}</td>
                  <td className="number">
                    {phase?.latencyMs ? `${formatMs(phase.latencyMs.p99)} ms` : "—"}
                  </td>
                  <td className="number">{phase ? formatInteger(phase.errors) : "—"}</td>
                  <td>{row === 0 ? problemText(shard, t) : ""}</td>
                </tr>
              ));
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Why a shard is missing or failed; a clock the barrier refused is said in the UI's language. */
function problemText(shard: ShardBreakdown, t: TFunction<"kubernetes">): string {
  const { clock } = shard;
  if (shard.status === "failed" && shard.startOffsetMs === null && clock && clockIsOff(clock)) {
    // Server minus local: a clock ahead of the server's has a negative offset.
    const offset = formatFixed(Math.abs(clock.offsetMs) / 1000, 1);
    return t(clock.offsetMs < 0 ? "breakdown.clockRefusedAhead" : "breakdown.clockRefusedBehind", {
      offset,
    });
  }
  return shard.problem ?? "";
}
