import { isTiedMode, type PhaseSummary, type RequestMode } from "@taillab/api";
import { formatInteger, formatMiB, formatMs, formatPercent } from "@taillab/report";
import { useTranslation } from "react-i18next";

/**
 * What the backups of the chosen phase cost (hedged, tied and adaptive modes): how many extra
 * requests went out, how many were cancelled or won, the bytes they wasted and the budget.
 */
export function HedgeCostCard({ phase, mode }: { phase: PhaseSummary; mode: RequestMode }) {
  const { t } = useTranslation("runs");
  const hedge = phase.hedge;
  return (
    <section
      className="card hedge-cost"
      data-testid="hedge-cost"
      data-op={phase.op}
      data-extra-percent={hedge?.extraPct}
      data-not-sent={hedge?.notSent}
      data-reconnects={hedge?.reconnects}
      data-attempts={hedge?.attempts}
      data-cancelled={hedge?.cancelled}
      data-won-by-backup={hedge?.wonByBackup}
      data-same-replica={hedge?.sameReplica}
      data-wasted-bytes={hedge?.wastedBytes}
      data-budget-percent={hedge?.budgetPct}
    >
      <h2>
        {t("hedge.title", { mode: t(`modes.${mode}`) })} · {t(`ops.${phase.op}`)}
      </h2>
      {hedge ? (
        <>
          <div className="stats">
            <Stat label={t("hedge.extra")} value={`${formatPercent(hedge.extraPct)} %`} strong />
            <Stat label={t("hedge.attempts")} value={formatInteger(hedge.attempts)} />
            {hedge.notSent === undefined ? null : (
              <Stat label={t("hedge.notSent")} value={formatInteger(hedge.notSent)} />
            )}
            <Stat label={t("hedge.won")} value={formatInteger(hedge.wonByBackup)} />
            <Stat label={t("hedge.cancelled")} value={formatInteger(hedge.cancelled)} />
            {hedge.reconnects === undefined ? null : (
              <Stat
                label={t("hedge.reconnects")}
                value={`${formatInteger(hedge.reconnects)} · ${formatMs(hedge.reconnectMeanMs ?? 0)} ms`}
              />
            )}
            <Stat label={t("hedge.wasted")} value={`${formatMiB(hedge.wastedBytes)} MB`} />
            <Stat
              label={t("hedge.delay")}
              value={hedge.delayMs === null ? t("hedge.noneSent") : `${formatMs(hedge.delayMs)} ms`}
            />
            <Stat
              label={isTiedMode(mode) ? t("hedge.budgetTied") : t("hedge.budget")}
              value={`${formatPercent(hedge.budgetPct, 0)} %`}
            />
          </div>
          <p className="muted">{t("hedge.note")}</p>
        </>
      ) : (
        <p className="muted" data-testid="hedge-none">
          {phase.op === "DELETE" ? t("hedge.neverHedged") : t("hedge.noBackups")}
        </p>
      )}
    </section>
  );
}

function Stat({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={strong ? "stat strong" : "stat"}>
      <span className="value">{value}</span>
      <span className="label">{label}</span>
    </div>
  );
}
