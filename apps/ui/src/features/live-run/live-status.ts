import type { LiveRunState } from "./live-run-state.ts";

export type ShownStatus =
  "idle" | "starting" | "running" | "complete" | "stopped" | "serverLost" | "failed";

/** One word for the run's state, as the status badge and the e2e tests read it. */
export function shownStatus(state: LiveRunState): ShownStatus {
  if (state.status !== "finished") return state.status;
  const finished = state.finished;
  return finished?.status ?? "complete";
}

/** The last run of a mode series is over: its runs can be compared. */
export function canCompareModes(state: LiveRunState): boolean {
  const finished = state.finished;
  if (!finished) return false;
  const { index, count } = finished.series;
  return count > 1 && index === count - 1 && finished.seriesRunIds.length > 1;
}

/** A run of a series finished and the next mode's run is about to start. */
export function nextModeComing(state: LiveRunState): boolean {
  const finished = state.finished;
  if (finished?.status !== "complete") return false;
  return finished.series.index < finished.series.count - 1;
}

/**
 * The experiment's name for the header: a run of a mode series is stored as "name (mode)", and
 * the header names the mode beside it already.
 */
export function experimentTitle(state: LiveRunState): string {
  const { name, series } = state;
  if (!series || series.count <= 1) return name;
  const suffix = ` (${series.mode})`;
  return name.endsWith(suffix) ? name.slice(0, -suffix.length) : name;
}

/**
 * Where a stopped sweep stopped: in point `index` of `count` (from 1), the points before it
 * `finished`. Null for a run that was not stopped or has one point.
 */
export function stoppedInPoint(
  state: LiveRunState,
): { index: number; finished: number; count: number; measured: boolean } | null {
  if (state.finished?.status !== "stopped" || !state.progress) return null;
  const count = Math.max(state.progress.pointCount, state.points.length);
  if (count <= 1) return null;
  const index = state.progress.pointIndex + 1;
  const measured = index > 1 || state.progress.done > 0;
  return { index, finished: index - 1, count, measured };
}
