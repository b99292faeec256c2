import type { PhaseSummary, RequestMode, RunDetail, RunPointParams } from "@taillab/api";
import {
  COMPARISON_METRICS,
  differingParams,
  differsByMode,
  POINT_PARAMS,
  type ComparisonCell,
  type ComparisonMetric,
  type ComparisonRow,
  type PointParam,
  type RunComparison,
} from "@taillab/core";

/** A run being compared, under the name the comparison shows. */
export interface ComparedRun {
  runId: string;
  label: string;
  detail: RunDetail;
}

/**
 * Each run's name (or id), numbered when two compared runs share it, as the report does;
 * `nameText` says a built-in lab's name in the UI's language.
 */
export function runLabels(
  details: readonly RunDetail[],
  nameText: (name: string) => string = (name) => name,
): string[] {
  const base = details.map((detail) =>
    detail.meta.name ? nameText(detail.meta.name) : detail.meta.id,
  );
  return base.map((label, index) =>
    base.some((other, otherIndex) => otherIndex !== index && other === label)
      ? `${label} (#${index + 1})`
      : label,
  );
}

/**
 * The compared phase of the run at `runIndex`, at its own point on the comparison row; null where
 * the run has no such point or phase.
 */
export function phaseOnRow(
  run: ComparedRun,
  row: ComparisonRow,
  runIndex: number,
): { pointIndex: number; phase: PhaseSummary } | null {
  const pointIndex = row.pointIndexes[runIndex];
  if (pointIndex === null || pointIndex === undefined) return null;
  const phase = run.detail.summary.points[pointIndex]?.phases.find((entry) => entry.op === row.op);
  return phase ? { pointIndex, phase } : null;
}

/** A comparison row's identity across re-renders and baseline changes: its point and phase. */
export function rowKey(row: ComparisonRow): string {
  const { clients, samples, objectSizeBytes } = row.params;
  return `${clients}-${samples}-${objectSizeBytes}-${row.op}`;
}

/**
 * The phase to compare first: reads (GET), where hedging is classically shown; else the first
 * phase that is not the cleanup; else whatever there is.
 */
export function defaultRowKey(comparison: RunComparison): string | null {
  const rows = comparison.rows;
  const row =
    rows.find((entry) => entry.op === "GET") ??
    rows.find((entry) => entry.op !== "DELETE") ??
    rows[0];
  return row ? rowKey(row) : null;
}

/** The baseline to start from: the first run in normal mode (what hedging is measured against). */
export function defaultBaseline(
  runs: readonly { runId: string; mode: RequestMode }[],
): string | null {
  return (runs.find((run) => run.mode === "normal") ?? runs[0])?.runId ?? null;
}

export type Verdict = "better" | "worse" | "same";

export interface ComparedFigure {
  value: number | null;
  /** value ÷ the baseline's value; null where either is missing or the baseline's is 0. */
  ratio: number | null;
  verdict: Verdict | null;
  /** A percentile's change is beyond chance (core's compareRuns); null where it is not judged. */
  significant: boolean | null;
  /** How it was judged (core's ComparisonCell). */
  significanceBy: ComparisonCell["significanceBy"];
}

export interface CompareTableRow {
  runId: string;
  label: string;
  mode: RequestMode;
  isBaseline: boolean;
  /** False when the run has no such point and phase. */
  present: boolean;
  /** The run's own point, which may differ from the baseline's when points were paired in order. */
  params: RunPointParams | null;
  /** Where the run's point differs from the baseline's (empty when either is missing). */
  differs: PointParam[];
  figures: Record<ComparisonMetric, ComparedFigure>;
}

const BETTER = new Map(COMPARISON_METRICS.map(({ metric, better }) => [metric, better]));

/**
 * Whether a row's ratios are wins and losses. Runs that differ by mode differ in their backups,
 * and the cleanup's DELETEs never send one: between such runs their ratios are noise, shown
 * without a verdict.
 */
export function judgesRow(op: ComparisonRow["op"], runs: readonly ComparedRun[]): boolean {
  return !(op === "DELETE" && differsByMode(runs.map((run) => run.detail.summary)));
}

/** A run's figure against the baseline's: its ratio, and whether that is better or worse. */
function comparedFigure(
  cell: ComparisonCell | undefined,
  metric: ComparisonMetric,
  isBaseline: boolean,
  judged: boolean,
): ComparedFigure {
  if (!cell || cell.value === null) {
    return { value: null, ratio: null, verdict: null, significant: null, significanceBy: null };
  }
  const ratio = cell.deltaPct === null ? null : 1 + cell.deltaPct / 100;
  let verdict: Verdict | null = null;
  if (cell.delta !== null && !isBaseline && judged) {
    const improved = BETTER.get(metric) === "lower" ? cell.delta < 0 : cell.delta > 0;
    verdict = cell.delta === 0 ? "same" : improved ? "better" : "worse";
  }
  const { significant, significanceBy } = cell;
  return { value: cell.value, ratio, verdict, significant, significanceBy };
}

/** One line of the all-points table: a point and phase, one figure per run. */
export interface AllPointsRow {
  key: string;
  params: RunPointParams;
  op: ComparisonRow["op"];
  figures: ComparedFigure[];
}

/**
 * Every point × phase of the comparison, each run's `metric` beside the baseline's: the whole
 * sweep against the baseline at a glance.
 */
export function allPointsRows(
  comparison: RunComparison,
  runs: readonly ComparedRun[],
  metric: ComparisonMetric,
): AllPointsRow[] {
  return comparison.rows.map((row) => ({
    key: rowKey(row),
    params: row.params,
    op: row.op,
    figures: row.cells[metric].map((cell, index) =>
      comparedFigure(cell, metric, index === comparison.baselineIndex, judgesRow(row.op, runs)),
    ),
  }));
}

/**
 * One row per run for the chosen point and phase, each figure with its ratio to the baseline's
 * and whether that is better or worse (lower latency, higher throughput), from core's comparison.
 */
export function compareTableRows(
  comparison: RunComparison,
  runs: readonly ComparedRun[],
  key: string,
): CompareTableRow[] {
  const row = comparison.rows.find((entry) => rowKey(entry) === key);
  const pointParams = (index: number): RunPointParams | null => {
    const pointIndex = row?.pointIndexes[index];
    if (pointIndex === null || pointIndex === undefined) return null;
    return runs[index]?.detail.summary.points[pointIndex]?.params ?? null;
  };
  const baselineParams = pointParams(comparison.baselineIndex);
  return runs.map((run, index) => {
    const params = pointParams(index);
    const figures = Object.fromEntries(
      COMPARISON_METRICS.map(({ metric }) => [
        metric,
        comparedFigure(
          row?.cells[metric][index],
          metric,
          index === comparison.baselineIndex,
          row ? judgesRow(row.op, runs) : true,
        ),
      ]),
    ) as Record<ComparisonMetric, ComparedFigure>;
    return {
      runId: run.runId,
      label: run.label,
      mode: run.detail.summary.mode,
      isBaseline: index === comparison.baselineIndex,
      present: params !== null,
      params,
      differs: params && baselineParams ? differingParams(params, baselineParams) : [],
      figures,
    };
  });
}

/** The point parameters in which some run differs from the baseline, in POINT_PARAMS order. */
export function variedParams(rows: readonly CompareTableRow[]): PointParam[] {
  return POINT_PARAMS.filter((param) => rows.some((row) => row.differs.includes(param)));
}

/** The baseline picker's order: the newest run first, as the library lists them. */
export function baselineChoices(runs: readonly ComparedRun[]): ComparedRun[] {
  return [...runs].sort(
    (a, b) =>
      Date.parse(b.detail.meta.createdAt) - Date.parse(a.detail.meta.createdAt) ||
      b.runId.localeCompare(a.runId),
  );
}
