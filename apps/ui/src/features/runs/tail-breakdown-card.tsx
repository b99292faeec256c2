import type { PhaseSummary } from "@taillab/api";
import { serverAndStall } from "@taillab/core";
import { formatInteger, formatMs, formatPercent, LATENCY_PARTS } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { ChartCanvas } from "../../shared/chart.tsx";
import {
  tailBreakdownChartConfig,
  tailRowParts,
  type TailPart,
  type TailRow,
} from "./tail-breakdown-chart.ts";

/**
 * Where the slowest 1 % and 0.1 % of a phase's requests spent their time: waiting in the client
 * before going out, opening a connection, waiting for a backup, sending the body, in the server
 * up to the first byte, and in the transfer. The parts add up to the mean latency of those requests, so the bar says at a glance
 * whether the tail is the server's, the network's or the tool's own.
 */
export function TailBreakdownCard({ phase }: { phase: PhaseSummary }) {
  const { t } = useTranslation("runs");
  const { tail } = phase;
  if (!tail) return null;
  const rows: TailRow[] = [
    {
      label: t("tail.slowest", { share: "1 %" }),
      share: tail.p99,
      ...serverAndStall(phase, "p99"),
    },
    {
      label: t("tail.slowest", { share: "0.1 %" }),
      share: tail.p999,
      ...serverAndStall(phase, "p999"),
    },
  ];
  const parts = tailRowParts(rows[0] as TailRow).map(({ part }) => part);
  const partLabels = Object.fromEntries(
    [...LATENCY_PARTS, "clientStall" as const].map((part) => [part, t(`tail.parts.${part}`)]),
  ) as Record<TailPart, string>;
  return (
    <figure
      className="card chart-card tail-breakdown"
      data-testid="tail-breakdown"
      data-op={phase.op}
      data-p99-server-ms={tail.p99.serverMs}
      data-p99-client-queue-ms={tail.p99.clientQueueMs}
    >
      <figcaption>
        <h3>{t("tail.title")}</h3>
        <p className="muted">{t("tail.intro")}</p>
      </figcaption>
      <ChartCanvas<"bar">
        testId="tail-breakdown-chart"
        label={t("tail.title")}
        deps={[tail, t]}
        build={(theme) =>
          tailBreakdownChartConfig(theme, rows, { parts: partLabels, x: t("tail.meanMs") })
        }
      />
      <div className="table-scroll">
        <table className="data tail-table" data-testid="tail-table">
          <thead>
            <tr>
              <th />
              <th className="number">{t("tail.requests")}</th>
              <th className="number">{t("tail.fromMs")}</th>
              <th className="number">{t("tail.meanMs")}</th>
              {parts.map((part) => (
                <th key={part} className="number">
                  {partLabels[part]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <ShareRow key={row.label} row={row} />
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">{t("tail.note")}</p>
    </figure>
  );
}

function ShareRow({ row }: { row: TailRow }) {
  const { t } = useTranslation("runs");
  const { share } = row;
  return (
    <tr data-testid="tail-row">
      <th scope="row">{row.label}</th>
      <td className="number">{formatInteger(share.requests)}</td>
      <td className="number">{formatMs(share.fromMs)}</td>
      <td className="number">{formatMs(share.meanMs)}</td>
      {tailRowParts(row).map(({ part, ms }) =>
        ms === null ? (
          <td key={part} className="number muted" data-part={part}>
            {t("tail.notRecorded")}
          </td>
        ) : (
          <td key={part} className="number" data-part={part}>
            {formatMs(ms)}
            <span className="muted small">
              {" "}
              ({share.meanMs > 0 ? formatPercent((ms * 100) / share.meanMs, 0) : "0"} %)
            </span>
          </td>
        ),
      )}
    </tr>
  );
}
