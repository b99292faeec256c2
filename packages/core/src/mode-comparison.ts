import { RequestModeSchema, type RequestMode, type RunSummary } from "@taillab/api";
import type { ComparisonRow } from "./run-comparison.ts";
import { P999_MIN_REQUESTS } from "./tail-sample-size.ts";

/** One run's tail and its cost at one compared point and phase, for "normal vs hedged vs tied". */
export interface ModeEntry {
  /** The run's place among the compared summaries. */
  runIndex: number;
  mode: RequestMode;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** Backups as a % of requests; 0 where none were sent (normal mode). */
  extraPct: number;
  wastedBytes: number;
  wonByBackup: number;
  cancelled: number;
  /** Requests answered: below P999_MIN_REQUESTS a p99.9 is only the slowest one. */
  requests: number;
  /** The mean wait before a backup left, and the budget backups could spend (%); null: none. */
  hedgeDelayMs: number | null;
  budgetPct: number | null;
}

/** Whether the compared runs differ by request mode: then the mode comparison is worth showing. */
export function differsByMode(summaries: readonly RunSummary[]): boolean {
  return new Set(summaries.map((summary) => summary.mode)).size > 1;
}

const MODE_ORDER = RequestModeSchema.options;

/**
 * A comparison row's phase of each run that has it, normal first, then hedged, tied and
 * adaptive (run order within a mode): the tail each mode reached and what its backups cost.
 */
export function modeComparison(summaries: readonly RunSummary[], row: ComparisonRow): ModeEntry[] {
  const entries = summaries.flatMap((summary, runIndex) => {
    const pointIndex = row.pointIndexes[runIndex];
    const phase =
      pointIndex === null || pointIndex === undefined
        ? undefined
        : summary.points[pointIndex]?.phases.find((entry) => entry.op === row.op);
    // A phase with no successful request has no tail to compare.
    if (!phase?.latencyMs) return [];
    return [
      {
        runIndex,
        mode: summary.mode,
        p50Ms: phase.latencyMs.p50,
        p99Ms: phase.latencyMs.p99,
        p999Ms: phase.latencyMs.p999,
        extraPct: phase.hedge?.extraPct ?? 0,
        wastedBytes: phase.hedge?.wastedBytes ?? 0,
        wonByBackup: phase.hedge?.wonByBackup ?? 0,
        cancelled: phase.hedge?.cancelled ?? 0,
        requests: phase.requests,
        hedgeDelayMs: phase.hedge?.delayMs ?? null,
        budgetPct: phase.hedge?.budgetPct ?? null,
      },
    ];
  });
  const order = (entry: ModeEntry) =>
    MODE_ORDER.indexOf(entry.mode) * summaries.length + entry.runIndex;
  return entries.sort((a, b) => order(a) - order(b));
}

/** Why a mode that sends backups did not cut normal's p99.9, as far as its figures tell. */
export type NoGainReason = "tooFewRequests" | "budgetSpent" | "delayAboveTail" | "noise";

/** One mode against the normal run: "hedged: p99.9 −68 % for +7.4 % requests". */
export interface ModeVerdict {
  runIndex: number;
  mode: RequestMode;
  /** p99.9's change from the normal run's, in %. */
  p999ChangePct: number;
  extraPct: number;
  /** Null when it cut the p99.9. */
  noGain: NoGainReason | null;
}

/** Backups count against the budget within this share of it (the limiter rounds per request). */
const BUDGET_SPENT_SHARE = 0.9;

/**
 * Each mode's verdict against the first normal run of `entries` (none without one): its p99.9's
 * change, what it cost, and when it did not cut the tail, the likeliest reason — p99.9 of too
 * few requests (their slowest one), a budget spent, or backups that waited past normal's own
 * p99.9 (past the stalls they were meant to hide); else the difference is the runs' noise.
 */
export function modeVerdicts(entries: readonly ModeEntry[]): ModeVerdict[] {
  const normal = entries.find((entry) => entry.mode === "normal");
  if (!normal || normal.p999Ms <= 0) return [];
  return entries
    .filter((entry) => entry !== normal)
    .map((entry) => {
      const cut = entry.p999Ms < normal.p999Ms;
      return {
        runIndex: entry.runIndex,
        mode: entry.mode,
        p999ChangePct: ((entry.p999Ms - normal.p999Ms) / normal.p999Ms) * 100,
        extraPct: entry.extraPct,
        noGain: cut ? null : noGainReason(entry, normal),
      };
    });
}

function noGainReason(entry: ModeEntry, normal: ModeEntry): NoGainReason {
  if (Math.min(entry.requests, normal.requests) < P999_MIN_REQUESTS) return "tooFewRequests";
  const budgeted = entry.mode === "hedged" || entry.mode === "adaptive";
  if (
    budgeted &&
    entry.budgetPct !== null &&
    entry.extraPct >= entry.budgetPct * BUDGET_SPENT_SHARE
  ) {
    return "budgetSpent";
  }
  if (entry.hedgeDelayMs !== null && entry.hedgeDelayMs >= normal.p999Ms) return "delayAboveTail";
  return "noise";
}
