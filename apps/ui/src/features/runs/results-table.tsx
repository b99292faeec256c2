import type { PercentileName, PhaseSummary, RunSummary } from "@taillab/api";
import { p999IsMax, phaseLatencyFigureMs, visibleText } from "@taillab/core";
import {
  fewBeyondLevels,
  formatFixed,
  formatInteger,
  formatIntervalMs,
  formatMiB,
  formatMs,
  formatPercent,
  percentileLabel,
} from "@taillab/report";
import { useTranslation } from "react-i18next";
import { pointText } from "./points-text.ts";
import type { PhaseChoice } from "./run-detail-store.ts";

/** A latency figure, or a dash where no request of the phase succeeded. */
export function msOrDash(valueMs: number | undefined | null): string {
  return valueMs === undefined || valueMs === null ? "—" : formatMs(valueMs);
}

/** The percentiles the table shows: the ones whose resting on few requests it names. */
const SHOWN_PERCENTILES: readonly PercentileName[] = ["p50", "p90", "p99", "p999"];

/** A percentile's confidence interval under its figure; nothing in runs recorded before it. */
function IntervalLine({ phase, name }: { phase: PhaseSummary; name: PercentileName }) {
  const interval = phase.latencyMs?.intervals?.byLevel[name];
  if (!interval) return null;
  return (
    <span className="interval" data-testid="interval" data-level={name}>
      {formatIntervalMs(interval)}
    </span>
  );
}

/** data-* figures of a phase, for tests and tools that must not parse formatted text. */
function phaseAttributes(phase: PhaseSummary) {
  return {
    "data-op": phase.op,
    "data-requests": phase.requests,
    "data-ops-per-sec": phase.opsPerSec,
    "data-mbps": phase.throughputMBps,
    "data-p50-ms": phaseLatencyFigureMs(phase, "p50") ?? undefined,
    "data-p90-ms": phaseLatencyFigureMs(phase, "p90") ?? undefined,
    "data-p99-ms": phaseLatencyFigureMs(phase, "p99") ?? undefined,
    "data-p999-ms": phaseLatencyFigureMs(phase, "p999") ?? undefined,
    "data-max-ms": phaseLatencyFigureMs(phase, "max") ?? undefined,
    "data-errors": phase.errors,
    "data-extra-percent": phase.hedge?.extraPct,
  };
}

/**
 * s3bench's figures, one row per point and phase, with the percentiles a tail needs and, when
 * backups were sent, what they cost. A row chooses the phase the charts below show.
 */
export function ResultsTable({
  summary,
  choice,
  onChoose,
}: {
  summary: RunSummary;
  choice: PhaseChoice | null;
  onChoose: (choice: PhaseChoice) => void;
}) {
  const { t } = useTranslation("runs");
  const sweep = summary.points.length > 1;
  const phases = summary.points.flatMap((point) => point.phases);
  const hedged = phases.some((phase) => phase.hedge);
  const openLoop = phases.some((phase) => phase.loop === "open");
  const shortTail = phases.some(p999IsMax);
  const intervals = phases.find((phase) => phase.latencyMs?.intervals)?.latencyMs?.intervals;
  const restingOnFew = summary.points.flatMap((point, pointIndex) =>
    point.phases.flatMap((phase) =>
      fewBeyondLevels(phase.latencyMs)
        .filter((few) => SHOWN_PERCENTILES.includes(few.name))
        .map((few) => ({ pointIndex, op: phase.op, ...few })),
    ),
  );
  // A phase with no successful request has no latency: the table's dashes say why here.
  const unanswered = summary.points.flatMap((point, pointIndex) =>
    point.phases
      .filter((phase) => phase.latencyMs === null && !phase.toolLatencyMs && phase.requests > 0)
      .map((phase) => ({ pointIndex, phase })),
  );
  const printedByTool = phases.some((phase) => phase.toolLatencyMs);
  return (
    <>
      <div className="table-scroll">
        <table className="data results-table" data-testid="results-table">
          <thead>
            <tr>
              {sweep ? <th>{t("results.point")}</th> : null}
              <th>{t("results.operation")}</th>
              <th className="number">{t("results.requests")}</th>
              <th className="number">ops/s</th>
              <th className="number">MB/s</th>
              <th className="number">p50 (ms)</th>
              <th className="number">p90 (ms)</th>
              <th className="number">p99 (ms)</th>
              <th className="number">p99.9 (ms)</th>
              <th className="number">{t("results.maxMs")}</th>
              <th className="number">{t("results.errors")}</th>
              {openLoop ? (
                <>
                  <th className="number">{t("results.serviceP99")}</th>
                  <th className="number">{t("results.missedStarts")}</th>
                </>
              ) : null}
              {hedged ? (
                <>
                  <th className="number">{t("results.backups")}</th>
                  <th className="number">{t("results.wonByBackup")}</th>
                  <th className="number">{t("results.wasted")}</th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {summary.points.flatMap((point, pointIndex) =>
              point.phases.map((phase, phaseIndex) => {
                const chosen = choice?.pointIndex === pointIndex && choice.op === phase.op;
                return (
                  <tr
                    key={`${pointIndex}-${phase.op}`}
                    data-testid="result-row"
                    data-point-index={pointIndex}
                    {...phaseAttributes(phase)}
                    aria-selected={chosen}
                    className={`clickable${chosen ? " chosen" : ""}${phaseIndex === 0 && pointIndex > 0 ? " group-start" : ""}`}
                    onClick={() => onChoose({ pointIndex, op: phase.op })}
                  >
                    {sweep ? (
                      <td className="nowrap">
                        {phaseIndex === 0 ? pointText(point.params, t) : ""}
                      </td>
                    ) : null}
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-pressed={chosen}
                        onClick={(event) => {
                          event.stopPropagation();
                          onChoose({ pointIndex, op: phase.op });
                        }}
                      >
                        {t(`ops.${phase.op}`)}
                      </button>
                    </td>
                    <td className="number">{formatInteger(phase.requests)}</td>
                    <td className="number">{formatFixed(phase.opsPerSec, 1)}</td>
                    <td className="number">{formatFixed(phase.throughputMBps, 2)}</td>
                    <td className="number">
                      {msOrDash(phaseLatencyFigureMs(phase, "p50"))}
                      <IntervalLine phase={phase} name="p50" />
                    </td>
                    <td className="number">
                      {msOrDash(phaseLatencyFigureMs(phase, "p90"))}
                      <IntervalLine phase={phase} name="p90" />
                    </td>
                    <td className="number">
                      {msOrDash(phaseLatencyFigureMs(phase, "p99"))}
                      <IntervalLine phase={phase} name="p99" />
                    </td>
                    <td
                      className="number strong"
                      data-testid="result-p999"
                      data-is-max={p999IsMax(phase) || undefined}
                      title={p999IsMax(phase) ? t("results.p999IsMax") : undefined}
                    >
                      <span data-testid="result-p999-figure">
                        {msOrDash(phaseLatencyFigureMs(phase, "p999"))}
                        {p999IsMax(phase) ? "*" : null}
                      </span>
                      <IntervalLine phase={phase} name="p999" />
                    </td>
                    <td className="number">{msOrDash(phaseLatencyFigureMs(phase, "max"))}</td>
                    <td className="number" data-testid="result-errors">
                      {phase.errors > 0 ? (
                        <>
                          <span className="badge danger">{formatInteger(phase.errors)}</span>
                          <ErrorCodes phase={phase} />
                        </>
                      ) : (
                        "0"
                      )}
                    </td>
                    {openLoop ? (
                      <>
                        <td className="number">
                          {phase.serviceMs ? formatMs(phase.serviceMs.p99) : "—"}
                        </td>
                        <td className="number">{formatInteger(phase.missedStarts)}</td>
                      </>
                    ) : null}
                    {hedged ? (
                      <>
                        <td className="number">
                          {phase.hedge ? formatPercent(phase.hedge.extraPct) : "—"}
                        </td>
                        <td className="number">
                          {phase.hedge ? formatInteger(phase.hedge.wonByBackup) : "—"}
                        </td>
                        <td className="number">
                          {phase.hedge ? formatMiB(phase.hedge.wastedBytes) : "—"}
                        </td>
                      </>
                    ) : null}
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </div>
      {printedByTool ? (
        <p className="muted small" data-testid="tool-latency-note">
          {t("results.toolLatencyNote")}
        </p>
      ) : null}
      {shortTail ? (
        <p className="muted small" data-testid="p999-note">
          {t("results.p999Note")}
        </p>
      ) : null}
      {intervals ? (
        <div className="muted small" data-testid="interval-note">
          <p>
            {t("results.intervalNote", {
              confidence: intervals.confidence * 100,
              precision: intervals.precisionPct,
            })}
          </p>
          {restingOnFew.length > 0 ? (
            <ul data-testid="rests-on-few">
              {restingOnFew.map(({ pointIndex, op, name, count, beyond }) => (
                <li key={`${pointIndex}-${op}-${name}`} data-op={op} data-level={name}>
                  {t("results.restsOn", {
                    op: t(`ops.${op}`),
                    point: sweep ? ` (${pointText(summary.points[pointIndex]!.params, t)})` : "",
                    percentile: percentileLabel(name),
                    count: formatInteger(count),
                    beyond: formatInteger(beyond),
                  })}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {unanswered.length > 0 ? (
        <ul className="banner warning no-latency" data-testid="no-latency-note">
          {unanswered.map(({ pointIndex, phase }) => (
            <li key={`${pointIndex}-${phase.op}`} data-op={phase.op} data-point-index={pointIndex}>
              {t("results.noSuccess", {
                op: t(`ops.${phase.op}`),
                point: sweep ? ` (${pointText(summary.points[pointIndex]!.params, t)})` : "",
                requests: formatInteger(phase.requests),
              })}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** Each error code of a phase and how often it came, most frequent first: visible, not a tooltip. */
function ErrorCodes({ phase }: { phase: PhaseSummary }) {
  const codes = Object.entries(phase.errorsByCode).sort(([, a], [, b]) => b - a);
  return (
    <ul className="error-codes" data-testid="error-codes">
      {codes.map(([code, count]) => (
        <li key={code} data-code={code} data-count={count}>
          <span className="mono" translate="no">
            {visibleText(code)}
          </span>{" "}
          {formatInteger(count)}
        </li>
      ))}
    </ul>
  );
}
