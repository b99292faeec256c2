import { clientHealthLines, coordinatedOmissionLines } from "./client-health-text.ts";
import { percentileIntervalLines, percentileLabel } from "./percentile-interval-text.ts";
import { untilSteadyLines } from "./until-steady-text.ts";
import {
  compareRuns,
  MISSED_START_TOLERANCE_MS,
  MIN_REPETITIONS,
  PERCENTILE_DIFFERENCE_METHOD,
  percentileChangeRangePct,
  REPETITION_DIFFERENCE_METHOD,
  serverAndStall,
  valueRange,
  type ParamDifference,
  type PointParam,
  type RunComparison,
} from "@taillab/core";
import { operationWord } from "./operation-words.ts";
import { s3benchResultText } from "./s3bench-run-text.ts";
import {
  PERCENTILE_LEVELS,
  formatByteSize,
  type LatencyStats,
  type PercentileName,
  type PhaseSummary,
  type PointSummary,
  type RunSummary,
  ToolLatencyFigureSchema,
  type ToolLatencyFigure,
  type ToolLatencyMs,
} from "@taillab/api";

/**
 * What TailLab measures beyond s3bench's block, headed as such: errors by code, every percentile
 * in ms with microsecond digits (p99.9 included), their intervals, where the time went, the
 * backups' cost, the client's health.
 */
export function formatPhaseTailLabFigures(phase: PhaseSummary): string {
  const word = operationWord(phase.op);
  const latency = phase.latencyMs;
  const codes = Object.entries(phase.errorsByCode);
  const lines = [
    `TailLab's figures for ${word} (not in s3bench's output):`,
    ...(codes.length > 0
      ? [`Errors by code:    ${codes.map(([code, count]) => `${code} ${count}`).join(", ")}`]
      : []),
    ...(latency
      ? [`${word} times, ms:  ${latencyFiguresText(latency)}`]
      : phase.toolLatencyMs
        ? toolLatencyLines(word, phase.toolLatencyMs)
        : [`${word} times: none (no request succeeded)`]),
    ...percentileIntervalLines(phase.op, latency),
    ...timelineLines(phase),
    ...hedgeLines(phase),
    ...clientHealthLines(phase),
    ...coordinatedOmissionLines(phase),
    ...untilSteadyLines(phase),
  ];
  return `${lines.join("\n")}\n`;
}

/** `min 1.500  p25 2.000 … p99.9 12.500  p99.99 13.000  max 14.000`: every level, ms. */
function latencyFiguresText(latency: LatencyStats): string {
  const levels = (Object.keys(PERCENTILE_LEVELS) as PercentileName[]).map(
    (name) => [percentileLabel(name), latency[name]] as const,
  );
  return [["min", latency.min] as const, ...levels, ["max", latency.max] as const]
    .map(([label, value]) => `${label} ${value.toFixed(3)}`)
    .join("  ");
}

/** `p99.9` for a percentile, the figure's own name (min, max, mean, stdev) otherwise. */
const toolFigureLabel = (figure: ToolLatencyFigure) =>
  figure in PERCENTILE_LEVELS ? percentileLabel(figure as PercentileName) : figure;

/** An imported run's figures in the order TailLab prints its own, then the tool's mean and spread. */
function toolLatencyLines(word: string, figures: ToolLatencyMs): string[] {
  const printed = ToolLatencyFigureSchema.options.flatMap((figure) => {
    const value = figures[figure];
    return value === undefined ? [] : [`${toolFigureLabel(figure)} ${value.toFixed(3)}`];
  });
  return [
    `${word} times, ms:  ${printed.join("  ")}`,
    "(times as the imported tool printed them: its file keeps no per-request data)",
  ];
}

const ms = (value: number) => `${value.toFixed(3)} ms`;
const pair = (stats: LatencyStats | null) =>
  stats ? `${ms(stats.p50)} / ${ms(stats.p99)}` : "n/a";
/** Connects and uploads, absent in runs recorded before they were: said, rather than read as 0. */
const recordedPair = (stats: LatencyStats | null | undefined) =>
  stats === undefined ? "not recorded" : pair(stats);
const recordedMs = (value: number | undefined) =>
  value === undefined ? "not recorded" : ms(value);

/**
 * The parts of a request's time (p50 / p99), the throughput while every client was busy, and
 * where the slowest 1 % and 0.1 % spent theirs. Open loop: times count from the scheduled start.
 */
function timelineLines(phase: PhaseSummary): string[] {
  const lines = [
    ...(phase.loop === "open"
      ? [
          "Times above are from the scheduled start (open loop, no coordinated omission)",
          `Missed starts:     ${phase.missedStarts} (picked up over ${MISSED_START_TOLERANCE_MS} ms after their scheduled time)`,
        ]
      : []),
    `Client queue p50 / p99: ${pair(phase.clientQueueMs)}   connect: ${recordedPair(phase.connectMs)}`,
    `Upload p50 / p99:       ${recordedPair(phase.uploadMs)}   service: ${pair(phase.serviceMs)}`,
    `TTFB p50 / p99:         ${pair(phase.ttfbMs)}   transfer: ${pair(phase.transferMs)}`,
  ];
  if (phase.steady) {
    const { steady } = phase;
    lines.push(
      `Steady throughput: ${steady.throughputMBps.toFixed(2)} MB/s, ${steady.opsPerSec.toFixed(1)} ops/s (${(steady.durationMs / 1000).toFixed(3)} s with every client busy)`,
    );
  }
  for (const [share, key] of [
    ["1 %", "p99"],
    ["0.1 %", "p999"],
  ] as const) {
    const slowest = phase.tail?.[key];
    if (!slowest || slowest.requests === 0) continue;
    const { serverMs, clientStallMs } = serverAndStall(phase, key);
    const stall = clientStallMs === null ? "" : `, client stall ${ms(clientStallMs)}`;
    lines.push(
      `Slowest ${share} (>= ${ms(slowest.fromMs)}, ${slowest.requests} requests, mean ${ms(slowest.meanMs)}): client queue ${ms(slowest.clientQueueMs)}, connect ${recordedMs(slowest.connectMs)}, backup wait ${ms(slowest.hedgeWaitMs)}, upload ${recordedMs(slowest.uploadMs)}${stall}, server ${ms(serverMs)}, transfer ${ms(slowest.transferMs)}`,
    );
  }
  return lines;
}

function hedgeLines(phase: PhaseSummary): string[] {
  const hedge = phase.hedge;
  if (!hedge) return [];
  const delay = hedge.delayMs === null ? "none sent" : `sent after ${ms(hedge.delayMs)} on average`;
  const shared =
    hedge.sameReplica > 0 ? `, ${hedge.sameReplica} to the first attempt's own replica` : "";
  // Runs recorded before it was counted have no figure: nothing is said rather than a 0.
  const notSent = hedge.notSent === undefined ? "" : `, ${hedge.notSent} not sent`;
  const reconnects =
    hedge.reconnects === undefined
      ? ""
      : `, ${hedge.reconnects} reconnects after a cancel (${ms(hedge.reconnectMeanMs ?? 0)} connect on average)`;
  return [
    `Backup requests:   ${hedge.extraPct.toFixed(2)} % extra (${hedge.attempts} attempts, ${delay}, budget ${hedge.budgetPct} %${notSent})`,
    `                   won by a backup ${hedge.wonByBackup}, cancelled ${hedge.cancelled}, wasted ${(hedge.wastedBytes / 1024 / 1024).toFixed(3)} MB${shared}${reconnects}`,
  ];
}

export function formatPointParams(point: Pick<PointSummary, "params">): string {
  const { clients, samples, objectSizeBytes } = point.params;
  return `clients ${clients}, samples ${samples}, object size ${formatByteSize(objectSizeBytes)}`;
}

/**
 * A point as s3bench prints its results: each phase's block exactly as s3bench does
 * (s3benchResultText), so scripts that parse s3bench's output keep working; then, apart under
 * their own headings, the figures s3bench does not show.
 */
export function formatPointS3bench(point: PointSummary): string {
  if (point.phases.length === 0) return "";
  return `${point.phases.map(s3benchResultText).join("\n")}\n${formatPointTailLabFigures(point)}`;
}

/** What TailLab measured of a point beyond s3bench's blocks: per phase, then the repetitions. */
export function formatPointTailLabFigures(point: PointSummary): string {
  return point.phases.map(formatPhaseTailLabFigures).join("\n") + formatRepetitions(point);
}

/**
 * Repeated points: the figures above merge every repetition; these are the cloud-testing
 * paper's figures, each run's value with the highest and lowest dropped and the rest averaged.
 */
function formatRepetitions(point: PointSummary): string {
  const stats = point.repetitionStats;
  if (!stats || stats.length === 0) return "";
  const runs = stats[0]?.opsPerSec.runs ?? 0;
  const method = stats[0]?.opsPerSec.method === "trimmed-mean" ? "trimmed mean" : "mean";
  const lines = stats.map(({ op, opsPerSec, throughputMBps }) => {
    const dropped =
      opsPerSec.dropped.length > 0
        ? `, dropped ${opsPerSec.dropped.map((value) => value.toFixed(1)).join(" and ")}`
        : "";
    return `  ${operationWord(op)}: ${opsPerSec.value.toFixed(1)} ops/s ± ${opsPerSec.stdev.toFixed(1)}${dropped}; ${throughputMBps.value.toFixed(2)} MB/s`;
  });
  return `\nRepetitions: ${runs} runs of this point, ${method} per run:\n${lines.join("\n")}\n`;
}

/** One line per point and phase: the table a sweep ends with. */
export function formatSweepTable(summary: RunSummary): string {
  const header = [
    "clients",
    "samples",
    "size",
    "op",
    "ops/s",
    "MB/s",
    "p50 ms",
    "p99 ms",
    "p99.9 ms",
    "max ms",
    "errors",
  ];
  const rows = summary.points.flatMap((point) =>
    point.phases.map((phase) => [
      String(point.params.clients),
      String(point.params.samples),
      formatByteSize(point.params.objectSizeBytes),
      phase.op,
      phase.opsPerSec.toFixed(1),
      phase.throughputMBps.toFixed(2),
      latencyCell(phase.latencyMs, "p50"),
      latencyCell(phase.latencyMs, "p99"),
      latencyCell(phase.latencyMs, "p999"),
      latencyCell(phase.latencyMs, "max"),
      String(phase.errors),
    ]),
  );
  return formatTable([header, ...rows]);
}

/** A latency figure for a table cell: "-" where no request succeeded. */
function latencyCell(stats: LatencyStats | null, figure: "p50" | "p99" | "p999" | "max"): string {
  return stats ? stats[figure].toFixed(3) : "-";
}

/** Plain-text columns, pasteable into a lab report: figures right-aligned, words left-aligned. */
export function formatTable(
  rows: readonly (readonly string[])[],
  align: "right" | "left" = "right",
): string {
  // A table may have a row per run or per sweep point: too many to spread into Math.max.
  const widths = (rows[0] ?? []).map(
    (_, column) => valueRange(rows.map((row) => (row[column] ?? "").length))?.max ?? 0,
  );
  const pad = (cell: string, width: number) =>
    align === "right" ? cell.padStart(width) : cell.padEnd(width);
  return rows
    .map((row) =>
      row
        .map((cell, column) => pad(cell, widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")
    .concat("\n");
}

/** `taillab compare-modes`: one line per mode and phase, the tail figures side by side. */
export function formatModeComparison(summaries: readonly RunSummary[]): string {
  const header = [
    "mode",
    "op",
    "requests",
    "p50 ms",
    "p99 ms",
    "p99.9 ms",
    "max ms",
    "extra %",
    "wasted MB",
    "errors",
  ];
  const rows = summaries.flatMap((summary) =>
    summary.points.flatMap((point) =>
      point.phases
        .filter((phase) => phase.op !== "DELETE")
        .map((phase) => [
          summary.mode,
          phase.op,
          String(phase.requests),
          latencyCell(phase.latencyMs, "p50"),
          latencyCell(phase.latencyMs, "p99"),
          latencyCell(phase.latencyMs, "p999"),
          latencyCell(phase.latencyMs, "max"),
          (phase.hedge?.extraPct ?? 0).toFixed(2),
          ((phase.hedge?.wastedBytes ?? 0) / 1024 / 1024).toFixed(3),
          String(phase.errors),
        ]),
    ),
  );
  return formatTable([header, ...rows]) + modeVerdictText(summaries) + serverWorkText(summaries);
}

const signedPct = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(1)}`;

/**
 * One line per mode run against the first and per operation: how its p99 and p99.9 changed, the
 * range of change both intervals allow, whether that is beyond chance, and for what extra
 * requests: `hedged GET: p99.9 −68.0 % [−74.1, −61.2] significant, p99 −3.1 % [−9.0, +2.9] n.s.;
 * for +2.90 % requests`.
 */
function modeVerdictText(summaries: readonly RunSummary[]): string {
  if (summaries.length < 2) return "";
  const comparison = compareRuns(summaries, 0);
  const lines = comparison.rows
    .filter((row) => row.op !== "DELETE")
    .flatMap((row) =>
      summaries.slice(1).flatMap((summary, offset) => {
        const runIndex = offset + 1;
        const pointIndex = row.pointIndexes[runIndex];
        const baseIndex = row.pointIndexes[0];
        if (pointIndex === null || pointIndex === undefined || baseIndex === null) return [];
        const phaseOf = (run: RunSummary, index: number | null | undefined) =>
          run.points[index ?? -1]?.phases.find((phase) => phase.op === row.op);
        const base = phaseOf(summaries[0] as RunSummary, baseIndex);
        const other = phaseOf(summary, pointIndex);
        const parts = (["p999", "p99"] as const).flatMap((name) => {
          const cell = row.cells[name === "p999" ? "p999Ms" : "p99Ms"][runIndex];
          const baseInterval = base?.latencyMs?.intervals?.byLevel[name];
          const otherInterval = other?.latencyMs?.intervals?.byLevel[name];
          if (!cell || cell.deltaPct === null || !baseInterval || !otherInterval) return [];
          const range = percentileChangeRangePct(baseInterval, otherInterval);
          const end = (value: number | null, open: string) =>
            value === null ? open : signedPct(value);
          return [
            `${percentileLabel(name)} ${signedPct(cell.deltaPct)} % [${end(range.lo, "−100")}, ${end(range.hi, "∞")}] ${cell.significant ? "significant" : "n.s."}`,
          ];
        });
        if (parts.length === 0) return [];
        const extra = other?.hedge?.extraPct ?? 0;
        return [
          `${summary.mode} ${row.op}: ${parts.join(", ")}; for +${extra.toFixed(2)} % requests`,
        ];
      }),
    );
  if (lines.length === 0) return "";
  return `\nAgainst ${summaries[0]?.mode} (significant: ${PERCENTILE_DIFFERENCE_METHOD}):\n${lines.map((line) => `  ${line}`).join("\n")}\n`;
}

/**
 * What the embedded testbed's replicas served in each run, against the first run's: the work
 * backups cost the servers (a tied twin dropped before service costs none).
 */
function serverWorkText(summaries: readonly RunSummary[]): string {
  const work = summaries.flatMap(({ mode, testbed }) => {
    if (!testbed?.every((replica) => replica.served !== undefined)) return [];
    const served = testbed.reduce((sum, replica) => sum + (replica.served ?? 0), 0);
    const dropped = testbed.reduce((sum, replica) => sum + (replica.tiesDropped ?? 0), 0);
    return [{ mode, served, dropped }];
  });
  const [base] = work;
  if (!base || work.length < 2) return "";
  const lines = work.map(({ mode, served, dropped }) => {
    const change = base.served > 0 ? ((served - base.served) / base.served) * 100 : 0;
    const versus = mode === base.mode ? "" : ` (${change >= 0 ? "+" : ""}${change.toFixed(1)} %)`;
    const ties = dropped > 0 ? `, ${dropped} tied twins dropped before service` : "";
    return `  ${mode}: ${served} requests served${versus}${ties}`;
  });
  return `\nTestbed work (every request the replicas began to serve, setup included):\n${lines.join("\n")}\n`;
}

const COMPARED_METRICS = [
  ["p50Ms", "p50 ms"],
  ["p99Ms", "p99 ms"],
  ["p999Ms", "p99.9 ms"],
  ["maxMs", "max ms"],
  ["throughputMBps", "MB/s"],
  ["opsPerSec", "ops/s"],
  ["errors", "errors"],
  ["hedgeExtraPct", "extra %"],
] as const;

/** `taillab compare`: each run's figure per point, phase and metric, with its change vs the baseline. */
export function formatRunComparison(
  comparison: RunComparison,
  runNames: readonly string[],
): string {
  const header = [
    "point",
    "op",
    "metric",
    ...runNames.map((name, index) =>
      index === comparison.baselineIndex ? `${name} (baseline)` : name,
    ),
  ];
  const rows = comparison.rows.flatMap((row) =>
    COMPARED_METRICS.map(([metric, label]) => [
      `${row.params.clients}-${row.params.samples}-${formatByteSize(row.params.objectSizeBytes)}`,
      row.op,
      label,
      ...row.cells[metric].map((cell, index) => {
        if (cell.value === null) return "–";
        const value = Number.isInteger(cell.value) ? String(cell.value) : cell.value.toFixed(3);
        if (index === comparison.baselineIndex || cell.deltaPct === null) return value;
        const by = cell.significanceBy === "repetitions" ? " by repetitions" : "";
        const verdict =
          cell.significant === null ? "" : `${cell.significant ? ", significant" : ", n.s."}${by}`;
        return `${value} (${cell.deltaPct >= 0 ? "+" : ""}${cell.deltaPct.toFixed(1)} %${verdict})`;
      }),
    ]),
  );
  const judgedBy = new Set(
    comparison.rows.flatMap((row) => row.cells.p99Ms.map((cell) => cell.significanceBy)),
  );
  const notes = [
    ...(judgedBy.has("intervals")
      ? [
          `A percentile's change is significant when ${PERCENTILE_DIFFERENCE_METHOD}; n.s.: not significant.`,
        ]
      : []),
    ...(judgedBy.has("repetitions")
      ? [
          `"by repetitions": both points ran ${MIN_REPETITIONS} times or more, and the change is significant when ${REPETITION_DIFFERENCE_METHOD}.`,
        ]
      : []),
    ...formatPairingNotes(comparison, runNames),
  ];
  const table = formatTable([header, ...rows]);
  return notes.length > 0 ? `${table}${notes.join("\n")}\n` : table;
}

const PARAM_WORD: Record<PointParam, string> = {
  clients: "clients",
  samples: "samples",
  objectSizeBytes: "object size",
};

/** A point parameter's values as a report shows them: sizes in KiB/MiB, counts as they are. */
export function formatParamValues(param: PointParam, values: readonly number[]): string {
  return values
    .map((value) => (param === "objectSizeBytes" ? formatByteSize(value) : String(value)))
    .join(", ");
}

function differenceText({ param, values, baselineValues }: ParamDifference): string {
  return `${PARAM_WORD[param]} (${formatParamValues(param, values)} vs ${formatParamValues(param, baselineValues)})`;
}

/**
 * One line per run paired with the baseline in order (it shares no point with it), naming what
 * differs, e.g. `run B paired in order with the baseline: differs in clients (8 vs 2)`.
 */
export function formatPairingNotes(
  comparison: RunComparison,
  runNames: readonly string[],
): string[] {
  return comparison.pairings.flatMap(({ pairing, differingParams }, index) =>
    pairing === "in-order"
      ? [
          `run ${runNames[index] ?? comparison.runIds[index]} paired in order with the baseline: differs in ${differingParams.map(differenceText).join(", ")}`,
        ]
      : [],
  );
}
