import {
  coded,
  OperationSchema,
  PERCENTILE_LEVELS,
  type Operation,
  type PercentileName,
  type PhaseSummary,
  type RunSummary,
} from "@taillab/api";
import { parseFailure, type TextParseResult } from "./workload-text.ts";

/**
 * Thresholds that gate a CI job, in k6's habit: `GET p99.9<50ms`, `PUT ops/s>800`,
 * `errors<0.1%`, `client-bound=false`. A threshold holds when every phase it names (each point's,
 * each operation's when none is named) meets it. `@ci` after a percentile's value asks the whole
 * 95 % interval to meet it, not just the figure: `GET p99.9<50ms@ci`.
 */
export type ThresholdFigure =
  | { kind: "latency"; figure: PercentileName | "max" | "mean" }
  | { kind: "opsPerSec" }
  | { kind: "throughputMBps" }
  | { kind: "errorCount" }
  | { kind: "errorPercent" }
  | { kind: "clientBound" };

export type ThresholdComparison = "<" | "<=" | ">" | ">=" | "=";

export interface Threshold {
  /** As written, trimmed: what every message and JUnit test case is named by. */
  text: string;
  /** null: every operation's phases. */
  op: Operation | null;
  figure: ThresholdFigure;
  comparison: ThresholdComparison;
  /** ms for a latency, 1 or 0 for client-bound, else the figure's own unit. */
  value: number;
  /** The percentile's whole confidence interval must meet the value. */
  wholeInterval: boolean;
}

const EXPRESSION = /^(?:([A-Za-z_]+)\s+)?([^\s<>=]+)\s*(<=|>=|<|>|==?)\s*(\S+)$/;
const WHOLE_INTERVAL_SUFFIX = "@ci";
const MS_PER_UNIT: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000 };
const NUMBER = "\\d+(?:\\.\\d+)?";

const PERCENTILE_BY_LABEL = new Map(
  (Object.entries(PERCENTILE_LEVELS) as [PercentileName, number][]).map(([name, level]) => [
    `p${level}`,
    name,
  ]),
);

function figureOf(written: string): ThresholdFigure | null {
  const lower = written.toLowerCase();
  const percentile = PERCENTILE_BY_LABEL.get(lower);
  if (percentile) return { kind: "latency", figure: percentile };
  if (lower === "max" || lower === "mean") return { kind: "latency", figure: lower };
  if (lower === "ops/s") return { kind: "opsPerSec" };
  if (lower === "mb/s") return { kind: "throughputMBps" };
  if (lower === "errors") return { kind: "errorCount" };
  if (lower === "client-bound") return { kind: "clientBound" };
  return null;
}

export function parseThreshold(written: string): TextParseResult<Threshold> {
  const text = written.trim();
  const match = EXPRESSION.exec(text);
  if (!match) return parseFailure(coded("thresholdUnreadable", { text }));
  const [, opText, figureText = "", comparisonText = "", valueWritten = ""] = match;
  let op: Operation | null = null;
  if (opText !== undefined) {
    const parsedOp = OperationSchema.safeParse(opText.toUpperCase());
    if (!parsedOp.success) {
      const operations = OperationSchema.options.join(", ");
      return parseFailure(coded("thresholdOperation", { text, operation: opText, operations }));
    }
    op = parsedOp.data;
  }
  let figure = figureOf(figureText);
  if (!figure) return parseFailure(coded("thresholdFigure", { text, figure: figureText }));
  const comparison = (comparisonText === "==" ? "=" : comparisonText) as ThresholdComparison;
  const wholeInterval = valueWritten.toLowerCase().endsWith(WHOLE_INTERVAL_SUFFIX);
  const valueText = wholeInterval
    ? valueWritten.slice(0, -WHOLE_INTERVAL_SUFFIX.length)
    : valueWritten;
  if (wholeInterval && !(figure.kind === "latency" && PERCENTILE_BY_LABEL.has(figureText))) {
    return parseFailure(coded("thresholdWholeInterval", { text }));
  }
  if ((figure.kind === "clientBound") !== (comparison === "=")) {
    return parseFailure(coded("thresholdBoolean", { text }));
  }
  let value: number;
  if (figure.kind === "clientBound") {
    if (!/^(true|false)$/i.test(valueText))
      return parseFailure(coded("thresholdBoolean", { text }));
    value = valueText.toLowerCase() === "true" ? 1 : 0;
  } else if (figure.kind === "latency") {
    const time = new RegExp(`^(${NUMBER})(us|µs|ms|s)?$`, "i").exec(valueText);
    if (!time) return parseFailure(coded("thresholdTime", { text, value: valueText }));
    value = Number(time[1]) * (MS_PER_UNIT[(time[2] ?? "ms").toLowerCase()] as number);
  } else if (figure.kind === "errorCount") {
    const errors = new RegExp(`^(${NUMBER})(%)?$`).exec(valueText);
    if (!errors) return parseFailure(coded("thresholdErrors", { text, value: valueText }));
    value = Number(errors[1]);
    if (errors[2]) figure = { kind: "errorPercent" };
  } else {
    if (!new RegExp(`^${NUMBER}$`).test(valueText)) {
      return parseFailure(coded("thresholdNumber", { text, value: valueText }));
    }
    value = Number(valueText);
  }
  return { ok: true, value: { text, op, figure, comparison, value, wholeInterval } };
}

/** How one threshold fared on a run. */
export interface ThresholdOutcome {
  threshold: Threshold;
  held: boolean;
  /** What was measured where it was judged (the phase that failed, or came closest): one line. */
  detail: string;
}

const UNIT: Record<ThresholdFigure["kind"], string> = {
  latency: " ms",
  opsPerSec: " ops/s",
  throughputMBps: " MB/s",
  errorCount: " errors",
  errorPercent: " % errors",
  clientBound: "",
};

function meets(actual: number, comparison: ThresholdComparison, value: number): boolean {
  switch (comparison) {
    case "<":
      return actual < value;
    case "<=":
      return actual <= value;
    case ">":
      return actual > value;
    case ">=":
      return actual >= value;
    case "=":
      return actual === value;
  }
}

/**
 * The figure a phase is judged by, or why it has none. With `@ci` a latency is judged by the end
 * of its interval the comparison is about: the upper end for `<`, the lower one for `>`.
 */
function judgedFigure(
  threshold: Threshold,
  phase: PhaseSummary,
): { actual: number; shown: string } | { missing: string } {
  const { figure } = threshold;
  switch (figure.kind) {
    case "latency": {
      const stats = phase.latencyMs;
      if (!stats) return { missing: "no request succeeded" };
      const measured = stats[figure.figure];
      if (!threshold.wholeInterval) return { actual: measured, shown: `${measured} ms` };
      const interval = stats.intervals?.byLevel[figure.figure as PercentileName];
      if (!interval) return { missing: "the run kept no intervals (recorded before they existed)" };
      const upper = threshold.comparison.startsWith("<");
      const end = upper ? interval.hi : (interval.lo ?? 0);
      if (end === null) {
        return { missing: `its 95 % interval is open above (too few requests beyond it)` };
      }
      return {
        actual: end,
        shown: `${measured} ms, 95 % interval [${interval.lo ?? 0}, ${interval.hi ?? "∞"}] ms`,
      };
    }
    case "opsPerSec":
      return { actual: phase.opsPerSec, shown: `${phase.opsPerSec.toFixed(1)} ops/s` };
    case "throughputMBps":
      return { actual: phase.throughputMBps, shown: `${phase.throughputMBps.toFixed(2)} MB/s` };
    case "errorCount":
      return { actual: phase.errors, shown: `${phase.errors} errors` };
    case "errorPercent": {
      const percent = phase.requests === 0 ? 0 : (100 * phase.errors) / phase.requests;
      return {
        actual: percent,
        shown: `${Number(percent.toFixed(4))} % errors (${phase.errors} of ${phase.requests})`,
      };
    }
    case "clientBound": {
      const verdict = phase.client?.verdict;
      if (!verdict) return { missing: "the client's health was not measured" };
      const bound = !verdict.keptUp;
      return {
        actual: bound ? 1 : 0,
        shown: bound ? `client-bound (${verdict.reasons.join(", ")})` : "the client kept up",
      };
    }
  }
}

/** Judges each threshold on every phase it names. */
export function evaluateThresholds(
  summary: RunSummary,
  thresholds: readonly Threshold[],
): ThresholdOutcome[] {
  const phases = summary.points.flatMap((point, pointIndex) =>
    point.phases.map((phase) => ({ phase, where: `point ${pointIndex + 1} ${phase.op}` })),
  );
  const single = summary.points.length === 1;
  return thresholds.map((threshold) => {
    const judged = phases.filter(({ phase }) => threshold.op === null || phase.op === threshold.op);
    if (judged.length === 0) {
      return {
        threshold,
        held: false,
        detail: `no ${threshold.op ? `${threshold.op} ` : ""}phase was measured`,
      };
    }
    const results = judged.map(({ phase, where }) => {
      const figure = judgedFigure(threshold, phase);
      const place = single ? phase.op : where;
      if ("missing" in figure) {
        return { held: false, actual: Number.NaN, line: `${place}: ${figure.missing}` };
      }
      return {
        held: meets(figure.actual, threshold.comparison, threshold.value),
        actual: figure.actual,
        line: `${place}: ${figure.shown}`,
      };
    });
    // Shown: the first phase that failed, else the one that came closest to failing.
    const failed = results.find((result) => !result.held);
    const lowerIsWorse = threshold.comparison.startsWith(">");
    const closest = results.reduce((worst, result) =>
      (lowerIsWorse ? result.actual < worst.actual : result.actual > worst.actual) ? result : worst,
    );
    const shown = failed ?? closest;
    const wanted = `${threshold.comparison} ${threshold.value}${UNIT[threshold.figure.kind]}`;
    return {
      threshold,
      held: failed === undefined,
      detail: `${shown.line} (wanted ${threshold.figure.kind === "clientBound" ? threshold.text : wanted}${threshold.wholeInterval ? " for the whole interval" : ""})`,
    };
  });
}
