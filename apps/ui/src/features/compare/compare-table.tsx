import type { RunPointParams } from "@taillab/api";
import type { ComparisonMetric, PointParam } from "@taillab/core";
import {
  formatFixed,
  formatInteger,
  formatMs,
  formatPercent,
  formatSize,
  PALETTES,
  DASH_PATTERNS,
  runLooks,
  type SeriesLook,
} from "@taillab/report";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useSettings } from "../../app/settings-store.ts";
import { variedParams, type ComparedFigure, type CompareTableRow } from "./compare-model.ts";

interface Column {
  metric: ComparisonMetric;
  header: string;
  format: (value: number) => string;
}

/** The columns of the table; the backup cost only when some run sent backups. */
export function columns(hedged: boolean, t: TFunction<"compare">): Column[] {
  return [
    { metric: "p50Ms", header: "p50 (ms)", format: formatMs },
    { metric: "p99Ms", header: "p99 (ms)", format: formatMs },
    { metric: "p999Ms", header: "p99.9 (ms)", format: formatMs },
    { metric: "maxMs", header: t("table.maxMs"), format: formatMs },
    { metric: "opsPerSec", header: "ops/s", format: (value) => formatFixed(value, 1) },
    { metric: "throughputMBps", header: "MB/s", format: (value) => formatFixed(value, 2) },
    { metric: "errors", header: t("table.errors"), format: formatInteger },
    ...(hedged
      ? [{ metric: "hedgeExtraPct" as const, header: t("table.extra"), format: formatPercent }]
      : []),
  ];
}

/** A point's value of each parameter some run differs in: "8 clients", "4 KiB". */
function paramsText(
  params: RunPointParams,
  shown: readonly PointParam[],
  t: TFunction<"compare">,
): string {
  return shown
    .map((param) =>
      param === "objectSizeBytes"
        ? formatSize(params.objectSizeBytes)
        : t(`table.${param}`, { count: params[param], value: formatInteger(params[param]) }),
    )
    .join(" · ");
}

export function FigureCell({
  figure,
  format,
  isBaseline,
}: {
  figure: ComparedFigure;
  format: (value: number) => string;
  isBaseline: boolean;
}) {
  const { t } = useTranslation("compare");
  if (figure.value === null) return <td className="number muted">–</td>;
  return (
    <td
      className="number"
      data-value={figure.value}
      data-ratio={isBaseline ? undefined : (figure.ratio ?? undefined)}
    >
      {format(figure.value)}
      {!isBaseline && figure.ratio !== null ? (
        <span className={`ratio ${figure.verdict ?? ""}`.trim()} data-verdict={figure.verdict}>
          ×{formatFixed(figure.ratio, 2)}
        </span>
      ) : null}
      {!isBaseline && figure.significant !== null ? (
        <span className="significance muted" data-significant={figure.significant}>
          {figure.significant ? t("table.significant") : t("table.notSignificant")}
          {figure.significanceBy === "repetitions" ? ` ${t("table.byRepetitions")}` : null}
        </span>
      ) : null}
    </td>
  );
}

/**
 * One row per run, the chosen point and phase: each figure and its ratio to the baseline's,
 * green where it improved (lower latency, higher throughput) and red where it got worse.
 */
export function CompareTable({
  rows,
  op,
  pointText,
}: {
  rows: readonly CompareTableRow[];
  op: string;
  pointText: string;
}) {
  const { t } = useTranslation("compare");
  const { t: tRuns } = useTranslation("runs");
  const hedged = rows.some((row) => (row.figures.hedgeExtraPct.value ?? 0) > 0);
  const shown = columns(hedged, t);
  const baseline = rows.find((row) => row.isBaseline);
  // Runs paired in order may differ from the baseline in a parameter: every row says its value.
  const varied = variedParams(rows);
  const theme = useSettings((state) => state.theme);
  const looks = runLooks(
    PALETTES[theme],
    rows.map((row) => row.mode),
  );
  return (
    <div className="table-scroll">
      <table
        className="data compare-table"
        data-testid="compare-table"
        data-op={op}
        data-point={pointText}
        data-baseline-id={baseline?.runId}
      >
        <thead>
          <tr>
            <th>{t("table.run")}</th>
            <th>{t("table.mode")}</th>
            {shown.map((column) => (
              <th key={column.metric} className="number">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr
              key={row.runId}
              data-testid="compare-row"
              data-run-id={row.runId}
              data-mode={row.mode}
              data-baseline={row.isBaseline}
              data-present={row.present}
              data-differs={row.differs.join(",")}
              data-clients={row.params?.clients}
              data-p50-ms={row.figures.p50Ms.value ?? undefined}
              data-p99-ms={row.figures.p99Ms.value ?? undefined}
              data-p999-ms={row.figures.p999Ms.value ?? undefined}
              data-ops-per-sec={row.figures.opsPerSec.value ?? undefined}
              data-p999-ratio={row.figures.p999Ms.ratio ?? undefined}
              className={row.isBaseline ? "baseline-row" : undefined}
            >
              <td>
                <LineSwatch look={looks[index]!} />
                {row.label}
                {row.isBaseline ? (
                  <span className="badge baseline">{t("table.baseline")}</span>
                ) : null}
                {row.params && varied.length > 0 ? (
                  <span
                    className={row.differs.length > 0 ? "point-differs" : "muted"}
                    data-testid="compare-point"
                  >
                    {" "}
                    · {paramsText(row.params, varied, t)}
                  </span>
                ) : null}
                {!row.present ? <span className="muted"> · {t("table.missing")}</span> : null}
              </td>
              <td>
                <span className="badge" data-mode={row.mode}>
                  {tRuns(`modes.${row.mode}`)}
                </span>
              </td>
              {shown.map((column) => (
                <FigureCell
                  key={column.metric}
                  figure={row.figures[column.metric]}
                  format={column.format}
                  isBaseline={row.isBaseline}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A run's line as its charts draw it: its colour and, past the sixth run, its dash. */
function LineSwatch({ look }: { look: SeriesLook }) {
  return (
    <svg className="swatch-line" width="24" height="10" aria-hidden="true" data-dash={look.dash}>
      <line
        x1="0"
        y1="5"
        x2="24"
        y2="5"
        stroke={look.color}
        strokeWidth="3"
        strokeDasharray={DASH_PATTERNS[look.dash].join(" ") || undefined}
      />
    </svg>
  );
}
