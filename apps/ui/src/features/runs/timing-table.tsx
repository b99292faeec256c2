import type { LatencyStats, RunSummary } from "@taillab/api";
import { formatFixed } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { pointText } from "./points-text.ts";
import { msOrDash } from "./results-table.tsx";

const PARTS = [
  "clientQueueMs",
  "connectMs",
  "serviceMs",
  "uploadMs",
  "ttfbMs",
  "transferMs",
] as const;
type Part = (typeof PARTS)[number];

/**
 * The figures behind each latency, per point and phase: how long requests waited in the client
 * before going out (client queue) and for a new connection (connect), the answering attempt from
 * sent to done (service), its body on the wire (upload), then to its first byte (TTFB) and its
 * body's transfer, at p50 and p99; and the throughput while every
 * client was busy (steady), without the ramp-up and the drain.
 */
export function TimingTable({ summary }: { summary: RunSummary }) {
  const { t } = useTranslation("runs");
  const sweep = summary.points.length > 1;
  const phases = summary.points.flatMap((point) => point.phases);
  // Runs recorded before these figures existed have none.
  if (!phases.some((phase) => PARTS.some((part) => phase[part]) || phase.steady)) return null;
  return (
    <section className="card section" data-testid="timing">
      <h2>{t("timing.title")}</h2>
      <p className="muted">{t("timing.intro")}</p>
      <div className="table-scroll">
        <table className="data timing-table" data-testid="timing-table">
          <thead>
            <tr>
              {sweep ? <th rowSpan={2}>{t("results.point")}</th> : null}
              <th rowSpan={2}>{t("results.operation")}</th>
              {PARTS.map((part) => (
                <th key={part} colSpan={2} className="group" title={t(`timing.hints.${part}`)}>
                  {t(`timing.parts.${part}`)}
                </th>
              ))}
              <th colSpan={2} className="group" title={t("timing.hints.steady")}>
                {t("timing.steady")}
              </th>
            </tr>
            <tr>
              {PARTS.flatMap((part) => [
                <th key={`${part}-p50`} className="number">
                  p50
                </th>,
                <th key={`${part}-p99`} className="number">
                  p99
                </th>,
              ])}
              <th className="number">MB/s</th>
              <th className="number">ops/s</th>
            </tr>
          </thead>
          <tbody>
            {summary.points.flatMap((point, pointIndex) =>
              point.phases.map((phase, phaseIndex) => (
                <tr
                  key={`${pointIndex}-${phase.op}`}
                  data-testid="timing-row"
                  data-op={phase.op}
                  data-point-index={pointIndex}
                  data-client-queue-p99-ms={phase.clientQueueMs?.p99}
                  data-connect-p99-ms={phase.connectMs?.p99}
                  data-service-p99-ms={phase.serviceMs?.p99}
                  data-upload-p99-ms={phase.uploadMs?.p99}
                  data-ttfb-p99-ms={phase.ttfbMs?.p99}
                  data-transfer-p99-ms={phase.transferMs?.p99}
                  data-steady-mbps={phase.steady?.throughputMBps}
                  className={phaseIndex === 0 && pointIndex > 0 ? "group-start" : undefined}
                >
                  {sweep ? (
                    <td className="nowrap">{phaseIndex === 0 ? pointText(point.params, t) : ""}</td>
                  ) : null}
                  <td>{t(`ops.${phase.op}`)}</td>
                  {PARTS.flatMap((part) => cells(part, phase[part], t("timing.notRecorded")))}
                  <td className="number">
                    {phase.steady ? formatFixed(phase.steady.throughputMBps, 2) : "—"}
                  </td>
                  <td className="number">
                    {phase.steady ? formatFixed(phase.steady.opsPerSec, 1) : "—"}
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
      <p className="muted small">{t("timing.note")}</p>
    </section>
  );
}

/** stats undefined: a run recorded before the figure was (connects and uploads). */
function cells(part: Part, stats: LatencyStats | null | undefined, notRecorded: string) {
  if (stats === undefined) {
    return [
      <td key={part} colSpan={2} className="number muted" data-part={part}>
        {notRecorded}
      </td>,
    ];
  }
  return [
    <td key={`${part}-p50`} className="number">
      {msOrDash(stats?.p50)}
    </td>,
    <td key={`${part}-p99`} className="number">
      {msOrDash(stats?.p99)}
    </td>,
  ];
}
